meta:
  id: fees
  title: FEES telemetry beacon
  endian: le
doc: |
  47-byte beacon of FEES (NORAD 48082). Voltages and currents are raw ADC counts; the ADC is
  calibrated against its 2.5 V reference reading (vacd2v5), see the mapping in src/formats/fees.ts.
  The last two bytes (unknown14) are a CRC-16/CCITT-FALSE of the 45 before them, little-endian
  (checked in src/formats/fees.ts).
seq:
  - id: header
    type: header
  - id: payload
    type: beacon
types:
  header:
    seq:
      - id: msg_type_id_0
        size: 1
      - id: msg_type_id_1
        type: u1
      - id: msg_type_id_2
        type: u1
  beacon:
    seq:
      - id: frame_id
        type: u2
      - id: timestamp
        type: u4
      - id: automatic_fw_checker_counter
        type: u4
      - id: commanded_fw_checker_counter
        type: u4
      - id: unknown4
        type: u1
      - id: vanalog
        type: u2
      - id: vacd2v5
        type: u2
        doc: ADC reading of the 2.5 V reference.
      - id: vbat
        type: u2
        doc: Battery voltage through a 1/2 divider.
      - id: vsol
        type: u2
        doc: Solar bus voltage through a 1/2 divider.
      - id: px_cell_v
        type: u2
      - id: mx_cell_v
        type: u2
      - id: py_cell_v
        type: u2
      - id: pz_cell_v
        type: u2
      - id: iload
        type: u2
      - id: icharger
        type: u2
      - id: px_cell_i
        type: u2
      - id: mx_cell_i
        type: u2
      - id: py_cell_i
        type: u2
      - id: unknown13
        type: u1
      - id: unknown14
        type: u2
