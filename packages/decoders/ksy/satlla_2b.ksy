meta:
  id: satlla_2b
  title: SATLLA-2B telemetry
  endian: le
doc: |
  Frames of SATLLA-2B (NORAD 51014). A three-byte header names the message type; type 0 is the
  full telemetry frame (69 bytes), type 6 the short beacon (22 bytes). Other types are not
  published and do not decode.
seq:
  - id: header
    type: header
  - id: payload
    type:
      switch-on: header.msg_type_id
      cases:
        0: telemetry
        6: beacon
types:
  header:
    seq:
      - id: local_address
        type: u1
      - id: byte_pos_2
        type: u1
        doc: Destination address.
      - id: msg_type_id
        type: u1
  beacon:
    seq:
      - id: msg_received
        type: u1
      - id: msg_index
        type: u2
      - id: battery_volts
        type: u2
        doc: Millivolts.
      - id: battery_current
        type: s2
        doc: Milliamperes.
      - id: sns_ntc1
        type: s1
      - id: sns_ntc2
        type: s1
      - id: sd_outbox
        type: u2
  telemetry:
    seq:
      - id: msg_size
        type: u1
      - id: msg_index
        type: u2
      - id: msg_time
        type: u2
      - id: msg_ack_req
        type: u1
      - id: date_time_t
        size: 5
      - id: gps_lat
        type: s4
      - id: gps_lng
        type: s4
      - id: gps_alt
        type: s2
      - id: gps_speed
        type: u2
      - id: gps_course
        type: u2
      - id: gps_sat
        type: u1
      - id: sns_gx
        type: s2
        doc: Gyroscope, hundredths.
      - id: sns_gy
        type: s2
      - id: sns_gz
        type: s2
      - id: sns_mx
        type: s2
        doc: Magnetometer, hundredths.
      - id: sns_my
        type: s2
      - id: sns_mz
        type: s2
      - id: sns_bmp_temp_c
        type: s2
        doc: Hundredths of a degree Celsius.
      - id: sns_ntc1
        type: s1
      - id: sns_ntc2
        type: s1
      - id: battery_soc
        type: u1
      - id: battery_health
        type: u1
      - id: battery_volts
        type: u2
      - id: battery_current
        type: s2
      - id: battery_full_capacity
        type: u2
      - id: battery_capacity
        type: u2
      - id: battery_power
        type: u2
      - id: sd_outbox
        type: u2
      - id: sd_sent
        type: u2
      - id: sd_rpi
        type: u2
      - id: sd_files
        type: u2
