// Who may publish and subscribe where. A connection authenticated as user U speaks only for U's
// stations: it publishes station-to-server topics under `tinygs/U/{station}/` and reads the
// network-wide commands and its own stations' commands. Everything else is refused.
import { MQTT_TOPIC_ROOT, parseStationTopic } from '@tinygs/contracts';

const GLOBAL_PREFIX = `${MQTT_TOPIC_ROOT}/global/`;
const LITERAL_LEVEL = /^[^/+#]+$/;

export function mayPublish(userId: string, topic: string): boolean {
  const t = parseStationTopic(topic);
  return t !== null && t.userId === userId && (t.kind === 'tele' || t.kind === 'stat');
}

export function maySubscribe(userId: string, filter: string): boolean {
  if (filter === `${MQTT_TOPIC_ROOT}/global/#`) return true;
  if (filter.startsWith(GLOBAL_PREFIX)) return filter.length > GLOBAL_PREFIX.length;
  const levels = filter.split('/');
  if (levels.length < 5) return false;
  const [root, user, station, kind] = levels;
  return (
    root === MQTT_TOPIC_ROOT &&
    user === userId &&
    station !== undefined &&
    LITERAL_LEVEL.test(station) &&
    kind === 'cmnd' &&
    levels.slice(4).every((l) => l.length > 0)
  );
}
