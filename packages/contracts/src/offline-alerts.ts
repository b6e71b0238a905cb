// Offline alerts (server addition): an owner who switches them on in the e-mail preferences gets
// one e-mail (and a chat-bot message when the bot is linked) per outage of one of their stations
// that lasts the chosen time, and one when the station is back.
import { z } from 'zod';

/** The choices of how long a station must be offline before its owner is told, in minutes. */
export const OFFLINE_ALERT_DELAYS_MINUTES = [30, 120, 1440] as const;
export type OfflineAlertDelayMinutes = (typeof OFFLINE_ALERT_DELAYS_MINUTES)[number];
export const OFFLINE_ALERT_DEFAULT_DELAY_MINUTES: OfflineAlertDelayMinutes = 120;

export const OFFLINE_ALERT_DELAY_LABELS: Record<OfflineAlertDelayMinutes, string> = {
  30: '30 minutes',
  120: '2 hours',
  1440: '1 day',
};

export const OfflineAlertDelaySchema = z.literal(OFFLINE_ALERT_DELAYS_MINUTES, {
  error: 'delayMinutes must be 30, 120 or 1440',
});

/** What the owner chooses (PUT /v1/user/{userId}, field offlineAlerts). */
export const OfflineAlertsUpdateSchema = z.object({
  enabled: z.boolean(),
  delayMinutes: OfflineAlertDelaySchema,
});
export type OfflineAlertsUpdate = z.infer<typeof OfflineAlertsUpdateSchema>;

/** The choice as stored, and whether the alerts also go through the chat bot. */
export const OfflineAlertsSchema = OfflineAlertsUpdateSchema.extend({
  /** the bot is configured on the server and the account is linked to a chat */
  viaBot: z.boolean(),
});
export type OfflineAlerts = z.infer<typeof OfflineAlertsSchema>;
