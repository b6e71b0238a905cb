meta:
  id: fossasat_2e
  title: FossaSat-2E family beacon (FossaSat-2E1, 2E8, 2E11, 2E12)
  endian: le
  encoding: ASCII
doc: |
  103-byte LoRa beacon. The ASCII callsign prefix "FO0" and a two-digit satellite number
  ("08", "11", "12") precede the unencrypted telemetry; the rest of the frame is not published.
  Sensors that are off report all-ones: NaN floats and 4294967295 for the GPS time.
seq:
  - id: fo0
    contents: 'FO0'
  - id: magic
    type: str
    size: 2
  - id: payload
    type: beacon
types:
  beacon:
    seq:
      - id: frame_id
        type: u1
      - id: tinygs_temp
        type: f4
        doc: Board temperature, degrees Celsius.
      - id: eclipse_flag
        type: u1
      - id: imu_gyro_x
        type: f4
      - id: imu_gyro_y
        type: f4
      - id: imu_gyro_z
        type: f4
      - id: gps_time
        type: u4
      - id: gps_altitude
        type: f4
      - id: gps_latitude
        type: f4
      - id: gps_longitude
        type: f4
