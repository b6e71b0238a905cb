meta:
  id: tinygs_demo
  title: TinyGS demo telemetry
  endian: le
  bit-endian: le
doc: |
  Telemetry frame of the network's generated demo satellites and balloons: 21 bytes, 33 with a
  GPS fix. Designed for the demo network, not by a satellite team. The last two bytes are a
  CRC-16/CCITT-FALSE of all bytes before them, checked by src/formats/tinygs_demo.ts; the encoder
  is src/demo-encoder.ts.
seq:
  - id: header
    type: header
  - id: payload
    type: telemetry
  - id: crc16
    type: u2
types:
  header:
    seq:
      - id: magic
        contents: 'TGD'
      - id: version
        type: u1
        valid: 1
      - id: frame_counter
        type: u2
        doc: Wraps at 65536.
  telemetry:
    seq:
      - id: battery_mv
        type: u2
      - id: temperature_dc
        type: s2
        doc: Tenths of a degree Celsius.
      - id: tx_power_mw
        type: u2
      - id: solar_current_ma
        type: s2
      - id: uptime_s
        type: u4
      - id: safe_mode
        type: b1
      - id: eclipse
        type: b1
      - id: has_gps
        type: b1
      - id: reserved_flags
        type: b5
      - id: gps
        type: gps_fix
        if: has_gps
  gps_fix:
    seq:
      - id: lat_e7
        type: s4
        doc: Latitude, 1e-7 degrees.
      - id: lng_e7
        type: s4
        doc: Longitude, 1e-7 degrees.
      - id: alt_m
        type: s4
        doc: Altitude above sea level, metres.
