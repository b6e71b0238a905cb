meta:
  id: polytech_universe_1
  title: Polytech_Universe-1 telemetry
  endian: le
doc: |
  42-byte telemetry of Polytech Universe-1 (NORAD 53371): a six-byte network header and 36 bytes
  of power-system telemetry in raw units (scale factors in src/formats/polytech_universe_1.ts).
  Longer frames are decoded from their first 42 bytes, as the live network does.
seq:
  - id: header
    type: header
  - id: payload
    type: telemetry
types:
  header:
    seq:
      - id: net_id
        type: u1
      - id: gs_id
        type: u1
      - id: sat_id
        type: u1
      - id: msg_type_id
        type: u1
      - id: length
        type: u1
      - id: reserved
        type: u1
  telemetry:
    seq:
      - id: timestamp
        type: u4
      - id: records
        type: u2
        doc: Battery voltage, tenths of a millivolt.
      - id: sat_r_xtime_b12
        type: u2
        doc: Low two bytes of the time of the last reception.
      - id: sat_r_xtime_b3
        type: u1
        doc: High byte of the time of the last reception.
      - id: sat_r_s_s_i
        type: s2
      - id: sat_s_n_r
        type: u1
      - id: sat_uptime_b12
        type: u2
      - id: sat_uptime_b3
        type: u1
      - id: psu_flag
        type: u1
      - id: psu_e_flag
        type: u1
      - id: v_bus
        type: u1
        doc: Bus voltage, 50 mV units.
      - id: i_bus
        type: s1
        doc: Bus current, 50 mA units.
      - id: bat_cap
        type: u1
        doc: Battery charge, 100 mAh units.
      - id: psu_ch1
        type: u1
      - id: psu_ch2
        type: u1
      - id: psu_ch3
        type: u1
      - id: psu_ch4
        type: u1
      - id: psu_ch5
        type: u1
      - id: psu_ch6
        type: u1
      - id: temp_bat_min
        type: s1
      - id: temp_bat_max
        type: s1
      - id: isolarcell1
        type: u1
        doc: Solar cell current, 20 mA units.
      - id: isolarcell2
        type: u1
      - id: isolarcell3
        type: u1
      - id: isolarcell4
        type: u1
      - id: vsolarcell
        type: u1
        doc: Solar voltage, 25 mV units.
      - id: psu_bat_flag1
        type: u1
      - id: psu_bat_flag2
        type: u1
      - id: bat_capacity
        type: u1
