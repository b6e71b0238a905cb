// Who may publish and subscribe where. A connection authenticated as user U speaks only for U's
// stations: it publishes station-to-server topics under `tinygs/U/{station}/` and reads the
// network-wide commands and its own stations' commands. A connection that logged in with a
// station's own credential (handed out through a one-time code) is narrower still: only that
// station's topics. Everything else is refused.
import { MQTT_TOPIC_ROOT, parseStationTopic } from '@tinygs/contracts';

/** Whom a broker connection speaks for, decided once when it authenticates. */
export interface BrokerIdentity {
  userId: string;
  /** the station its credential is bound to; null for the account-wide password */
  station: string | null;
}

const GLOBAL_PREFIX = `${MQTT_TOPIC_ROOT}/global/`;
const LITERAL_LEVEL = /^[^/+#]+$/;

export function mayPublish(who: BrokerIdentity, topic: string): boolean {
  const t = parseStationTopic(topic);
  return (
    t !== null &&
    t.userId === who.userId &&
    (who.station === null || t.station === who.station) &&
    (t.kind === 'tele' || t.kind === 'stat')
  );
}

export function maySubscribe(who: BrokerIdentity, filter: string): boolean {
  if (filter === `${MQTT_TOPIC_ROOT}/global/#`) return true;
  if (filter.startsWith(GLOBAL_PREFIX)) return filter.length > GLOBAL_PREFIX.length;
  const levels = filter.split('/');
  if (levels.length < 5) return false;
  const [root, user, station, kind] = levels;
  return (
    root === MQTT_TOPIC_ROOT &&
    user === who.userId &&
    station !== undefined &&
    LITERAL_LEVEL.test(station) &&
    (who.station === null || station === who.station) &&
    kind === 'cmnd' &&
    levels.slice(4).every((l) => l.length > 0)
  );
}

/**
 * Whether a message on `topic` may be delivered to this connection: the network-wide commands and
 * its own stations' commands. Checked on every delivery as well as on subscribing, so nothing
 * queued for an earlier holder of a client id reaches a different user.
 */
export function mayReceive(who: BrokerIdentity, topic: string): boolean {
  if (topic.startsWith(GLOBAL_PREFIX)) return true;
  const t = parseStationTopic(topic);
  return (
    t !== null &&
    t.kind === 'cmnd' &&
    t.userId === who.userId &&
    (who.station === null || t.station === who.station)
  );
}
