import { MS_PER_MINUTE } from './constants';
import {
  lookAnglesInto,
  observerFrame,
  type LookAngles,
  type Observer,
  type ObserverFrame,
} from './look-angles';
import { newInertialState, propagateInto } from './propagate';
import { toEpochMs, type TimeInput } from './time';
import type { Tle } from './tle';

export interface MaxElevation {
  maxElevationDeg: number;
  at: Date;
}

export interface Pass {
  /** Acquisition of signal: elevation rises through 0 (or the window start if already up). */
  aos: Date;
  /** Loss of signal: elevation falls through 0 (or the window end if still up). */
  los: Date;
  maxElevationDeg: number;
  maxElevationAt: Date;
}

const state = newInertialState();
const look: LookAngles = { azimuthDeg: 0, elevationDeg: 0, rangeKm: 0, rangeRateKmPerS: 0 };
// Propagation failures count as "not visible" so scans and searches stay well defined.
const NOT_VISIBLE_DEG = -90;
const GOLDEN_SECTION_ROUNDS = 24;
const HORIZON_CROSSING_PRECISION_MS = 500;

function elevationDegAt(tle: Tle, frame: ObserverFrame, epochMs: number): number {
  if (!propagateInto(tle, epochMs, state)) return NOT_VISIBLE_DEG;
  return lookAnglesInto(state, frame, look).elevationDeg;
}

/** Golden-section search for the elevation peak inside [lowMs, highMs]; a pass has a single peak. */
function refinePeak(tle: Tle, frame: ObserverFrame, lowMs: number, highMs: number): MaxElevation {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = lowMs;
  let b = highMs;
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let ec = elevationDegAt(tle, frame, c);
  let ed = elevationDegAt(tle, frame, d);
  for (let i = 0; i < GOLDEN_SECTION_ROUNDS; i++) {
    if (ec > ed) {
      b = d;
      d = c;
      ed = ec;
      c = b - ratio * (b - a);
      ec = elevationDegAt(tle, frame, c);
    } else {
      a = c;
      c = d;
      ec = ed;
      d = a + ratio * (b - a);
      ed = elevationDegAt(tle, frame, d);
    }
  }
  return ec > ed
    ? { maxElevationDeg: ec, at: new Date(Math.round(c)) }
    : { maxElevationDeg: ed, at: new Date(Math.round(d)) };
}

/** Time (ms) where elevation crosses 0 between a sample below and a sample above the horizon. */
function horizonCrossingMs(
  tle: Tle,
  frame: ObserverFrame,
  belowMs: number,
  aboveMs: number,
): number {
  let below = belowMs;
  let above = aboveMs;
  while (Math.abs(above - below) > HORIZON_CROSSING_PRECISION_MS) {
    const middle = (below + above) / 2;
    if (elevationDegAt(tle, frame, middle) > 0) above = middle;
    else below = middle;
  }
  return Math.round((below + above) / 2);
}

/**
 * Highest elevation of a satellite seen from an observer within [from, from + windowMinutes].
 * Sampled every stepSeconds; every local maximum of the samples is then refined, because near
 * the zenith a LEO satellite's elevation changes by tens of degrees within one step, so the best
 * sample does not always belong to the highest pass. Null when propagation fails at every sample.
 */
export function maxElevationWithin(
  tle: Tle,
  observer: Observer,
  from: TimeInput,
  windowMinutes: number,
  stepSeconds = 60,
): MaxElevation | null {
  const frame = observerFrame(observer);
  const startMs = toEpochMs(from);
  const endMs = startMs + Math.max(0, windowMinutes) * MS_PER_MINUTE;
  const stepMs = Math.max(1, stepSeconds) * 1000;
  let best: MaxElevation | null = null;
  let beforeDeg = Number.NaN;
  let previousDeg = Number.NaN;
  let previousMs = startMs;
  const consider = (peakMs: number, sampledDeg: number): void => {
    const refined = refinePeak(
      tle,
      frame,
      Math.max(startMs, peakMs - stepMs),
      Math.min(endMs, peakMs + stepMs),
    );
    const candidate =
      refined.maxElevationDeg > sampledDeg
        ? refined
        : { maxElevationDeg: sampledDeg, at: new Date(peakMs) };
    if (!best || candidate.maxElevationDeg > best.maxElevationDeg) best = candidate;
  };
  for (let t = startMs; ; t = Math.min(t + stepMs, endMs)) {
    const elevationDeg = propagateInto(tle, t, state)
      ? lookAnglesInto(state, frame, look).elevationDeg
      : Number.NaN;
    // previous is a local maximum when neither neighbour is higher (a missing neighbour counts as lower).
    if (!Number.isNaN(previousDeg) && !(beforeDeg > previousDeg) && !(elevationDeg > previousDeg)) {
      consider(previousMs, previousDeg);
    }
    beforeDeg = previousDeg;
    previousDeg = elevationDeg;
    previousMs = t;
    if (t >= endMs) break;
  }
  if (!Number.isNaN(previousDeg) && !(beforeDeg > previousDeg)) consider(previousMs, previousDeg);
  return best;
}

/**
 * Passes above the horizon (elevation > 0) within [from, from + hours], in time order. Passes are
 * clipped to the window. The horizon is scanned every stepSeconds (default 60), so a grazing pass
 * shorter than a step can be missed; crossings are then refined to half a second.
 */
export function nextPasses(
  tle: Tle,
  observer: Observer,
  from: TimeInput,
  hours: number,
  stepSeconds = 60,
): Pass[] {
  const frame = observerFrame(observer);
  const startMs = toEpochMs(from);
  const endMs = startMs + hours * 60 * MS_PER_MINUTE;
  const stepMs = Math.max(1, stepSeconds) * 1000;
  const passes: Pass[] = [];
  let aosMs = Number.NaN;
  let previousMs = startMs;
  let previousUp = false;

  const closePass = (losMs: number): void => {
    const peak = refinePeak(tle, frame, aosMs, losMs);
    passes.push({
      aos: new Date(aosMs),
      los: new Date(losMs),
      maxElevationDeg: peak.maxElevationDeg,
      maxElevationAt: peak.at,
    });
  };

  for (let t = startMs; ; t = Math.min(t + stepMs, endMs)) {
    const up = elevationDegAt(tle, frame, t) > 0;
    if (up && !previousUp)
      aosMs = t === startMs ? startMs : horizonCrossingMs(tle, frame, previousMs, t);
    if (!up && previousUp) closePass(horizonCrossingMs(tle, frame, t, previousMs));
    previousUp = up;
    previousMs = t;
    if (t >= endMs) break;
  }
  if (previousUp) closePass(endMs);
  return passes;
}
