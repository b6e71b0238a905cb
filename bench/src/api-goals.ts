// The goals of bench:api's rows, shared by the benchmark and the summary table `npm run bench` writes
// (which also judges older results files by them).

export interface Goal {
  /** absent: the p99 is reported beside the ceiling's, with no goal of its own */
  p99Ms?: number;
  ratioToCeiling: number;
}

/**
 * Every single-item route and packet list p99 < 50 ms and >= 0.5 of its
 * from-memory ceiling; the whole station list (about 2 MB at 10,000 stations, whose bare ceiling
 * alone has a p99 of hundreds of milliseconds over 50 connections) >= 0.8 of its own bytes' ceiling.
 */
export const GOALS: Goal = { p99Ms: 50, ratioToCeiling: 0.5 };
export const ROUTE_GOALS: Record<string, Goal> = { '/v1/stations': { ratioToCeiling: 0.8 } };
export const goalOf = (route: string): Goal => ROUTE_GOALS[route] ?? GOALS;

/** Whether a measured row meets its route's goal (no errors, the p99 where there is one, the ratio). */
export const meetsGoal = (
  goal: Goal,
  m: { p99Ms: number; errors?: number },
  ratioToCeiling: number,
): boolean =>
  (goal.p99Ms === undefined || m.p99Ms < goal.p99Ms) &&
  ratioToCeiling >= goal.ratioToCeiling &&
  (m.errors ?? 0) === 0;
