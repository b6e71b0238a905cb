// Initial schema. Migrations are only ever added, never edited; each runs on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

// Column helpers keep the dialect-neutral conventions of schema.ts in one place.
const MS = 'bigint'; // epoch milliseconds
const REAL = 'double precision';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('email_val', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('accepted_terms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('newsletter_frequency', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('mqtt_password_enc', 'text', (c) => c.notNull())
    .addColumn('telegram_chat_id', 'text')
    .addColumn('display_name', 'text')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', MS, (c) => c.notNull())
    .execute();

  for (const table of ['sessions', 'login_tokens']) {
    let t = db.schema
      .createTable(table)
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', MS, (c) => c.notNull())
      .addColumn('expires_at', MS, (c) => c.notNull());
    t =
      table === 'sessions'
        ? t.addColumn('last_used_at', MS, (c) => c.notNull())
        : t.addColumn('used_at', MS);
    await t.execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).column('user_id').execute();
  }

  await db.schema
    .createTable('email_validations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', MS, (c) => c.notNull())
    .addColumn('expires_at', MS, (c) => c.notNull())
    .addColumn('used_at', MS)
    .execute();

  await db.schema
    .createTable('stations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lat', REAL, (c) => c.notNull())
    .addColumn('lng', REAL, (c) => c.notNull())
    .addColumn('elevation_m', REAL)
    .addColumn('satellite', 'text')
    .addColumn('version', 'integer')
    .addColumn('git_version', 'text')
    .addColumn('board', 'text')
    .addColumn('mac', 'text')
    .addColumn('local_ip', 'text')
    .addColumn('wifi_rssi', 'integer')
    .addColumn('radio_status', 'integer')
    .addColumn('tx', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('modem_conf', 'text')
    .addColumn('last_seen', MS)
    .addColumn('last_packet_time', MS)
    .addColumn('creation_date', MS, (c) => c.notNull())
    .addColumn('auto_tune', 'integer')
    .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_update', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('beta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('antenna', 'text')
    .addColumn('antenna_band_low_mhz', REAL, (c) => c.notNull().defaultTo(100))
    .addColumn('antenna_band_high_mhz', REAL, (c) => c.notNull().defaultTo(960))
    .addColumn('record_distance_km', REAL, (c) => c.notNull().defaultTo(0))
    .addColumn('telemetry_packets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_packets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crc_errors', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('stations_user_idx').on('stations').column('user_id').execute();

  await db.schema
    .createTable('station_pictures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('orig_name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', MS, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('station_pictures_station_idx')
    .on('station_pictures')
    .column('station_id')
    .execute();
  await db.schema
    .createIndex('station_pictures_status_idx')
    .on('station_pictures')
    .column('status')
    .execute();

  await db.schema
    .createTable('satellites')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('norad', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('long_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('launch_date', MS)
    .addColumn('configurations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tle', 'text')
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('web_template', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('decoder', 'text')
    .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_packets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_packet_time', MS)
    .addColumn('updated_at', MS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('satellites_norad_idx').on('satellites').column('norad').execute();
  await db.schema.createIndex('satellites_status_idx').on('satellites').column('status').execute();

  await db.schema
    .createTable('packets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('norad', 'integer')
    .addColumn('server_time', MS, (c) => c.notNull())
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('frame_hash', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('freq', REAL, (c) => c.notNull())
    .addColumn('sf', 'integer')
    .addColumn('cr', 'integer')
    .addColumn('bw', REAL)
    .addColumn('bitrate', REAL)
    .addColumn('freq_dev', REAL)
    .addColumn('rx_bw', REAL)
    .addColumn('parsed', 'text')
    .addColumn('crc_error', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sat_lat', REAL)
    .addColumn('sat_lng', REAL)
    .addColumn('sat_alt', REAL)
    .addColumn('sun_lit', 'integer')
    .addColumn('eclipse_depth', REAL)
    .addColumn('foot_print', REAL)
    .addColumn('station_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tx_power_mw', REAL)
    .addColumn('historical', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('packets_satellite_time_idx')
    .on('packets')
    .columns(['satellite', 'server_time'])
    .execute();
  await db.schema
    .createIndex('packets_hash_time_idx')
    .on('packets')
    .columns(['frame_hash', 'server_time'])
    .execute();
  await db.schema.createIndex('packets_time_idx').on('packets').column('server_time').execute();

  await db.schema
    .createTable('receptions')
    .addColumn('packet_id', 'text', (c) => c.notNull())
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('server_time', MS, (c) => c.notNull())
    .addColumn('lat', REAL, (c) => c.notNull())
    .addColumn('lng', REAL, (c) => c.notNull())
    .addColumn('distance', REAL)
    .addColumn('elevation', REAL)
    .addColumn('azimuth', REAL)
    .addColumn('usec_time', MS)
    .addColumn('doppler', REAL)
    .addColumn('f_doppler', REAL)
    .addColumn('frequency_offset', REAL)
    .addColumn('crc_error', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rssi', REAL)
    .addColumn('snr', REAL)
    .addColumn('frequency_error', REAL)
    .addPrimaryKeyConstraint('receptions_pk', ['packet_id', 'station_id'])
    .execute();
  await db.schema
    .createIndex('receptions_station_time_idx')
    .on('receptions')
    .columns(['station_id', 'server_time'])
    .execute();

  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('station_daily_stats')
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('station_daily_stats_pk', ['station_id', 'day', 'satellite'])
    .execute();

  await db.schema
    .createTable('pending_creations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('otp', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('station_name', 'text', (c) => c.notNull())
    .addColumn('lat', REAL, (c) => c.notNull())
    .addColumn('lng', REAL, (c) => c.notNull())
    .addColumn('admin_pw_enc', 'text', (c) => c.notNull())
    .addColumn('tz', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', MS, (c) => c.notNull())
    .addColumn('expires_at', MS, (c) => c.notNull())
    .addColumn('delivered_at', MS)
    .execute();
  await db.schema
    .createIndex('pending_creations_otp_idx')
    .on('pending_creations')
    .column('otp')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'pending_creations',
    'station_daily_stats',
    'counters',
    'receptions',
    'packets',
    'satellites',
    'station_pictures',
    'stations',
    'email_validations',
    'login_tokens',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
