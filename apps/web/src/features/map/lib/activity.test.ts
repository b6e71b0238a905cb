import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveActivity } from './activity';
import { connectLiveEvents } from '../api/eventStream';
import { createSseHandlers } from '../api/sseHandlers';

const event = {
  satellite: 'Norby-2',
  satelliteName: 'norby2',
  packetId: '65f0c0ffee',
  satPos: { lat: 10, lng: 20, alt: 550 },
  stations: ['Alpha_1@42', 'Beta@7'],
};

describe('new-packet events', () => {
  let activity: LiveActivity;
  let handle: ReturnType<typeof createSseHandlers>;

  beforeEach(() => {
    vi.useFakeTimers();
    activity = new LiveActivity();
    handle = createSseHandlers({
      onNewPacket: (e) => activity.onNewPacket(e),
      onStationsDelta: () => Promise.resolve('ok'),
    });
  });
  afterEach(() => {
    activity.dispose();
    vi.useRealTimers();
  });

  it('makes the satellite and receiving stations ping for 2.5 s', () => {
    handle['new-packet'](JSON.stringify(event));
    expect(activity.satellitePing('norby2')).toBeDefined();
    expect(activity.stationPing('Alpha_1@42')).toBeDefined();
    expect(activity.stationPing('Beta@7')).toBeDefined();
    expect(activity.stationPing('Gamma@1')).toBeUndefined();

    vi.advanceTimersByTime(2499);
    expect(activity.satellitePing('norby2')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(activity.satellitePing('norby2')).toBeUndefined();
    expect(activity.pingingStations().size).toBe(0);
  });

  it('counts an online station tuned to the pinging satellite as receiving, for 2.5 s', () => {
    const tuned = { status: 1 as const, satellite: 'norby2' };
    expect(activity.isReceiving(tuned)).toBe(false);
    handle['new-packet'](JSON.stringify(event));
    // Whether or not it heard this packet: its satellite is pinging.
    expect(activity.isReceiving(tuned)).toBe(true);
    expect(activity.isReceiving({ status: 0, satellite: 'norby2' })).toBe(false);
    expect(activity.isReceiving({ status: 1, satellite: 'other' })).toBe(false);
    expect(activity.isReceiving({ status: 1, satellite: null })).toBe(false);
    vi.advanceTimersByTime(2500);
    expect(activity.isReceiving(tuned)).toBe(false);
  });

  it('shows a ticker item with the satellite display name that clears after 3 s', () => {
    const seen: string[][] = [];
    activity.subscribe(() => seen.push(activity.ticker().map((i) => i.satellite)));
    handle['new-packet'](JSON.stringify(event));
    expect(activity.ticker().map((i) => i.satellite)).toEqual(['Norby-2']);
    vi.advanceTimersByTime(2999);
    expect(activity.ticker()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(activity.ticker()).toHaveLength(0);
    expect(seen.at(-1)).toEqual([]);
  });

  it('restarts the ping when the same satellite is heard again', () => {
    handle['new-packet'](JSON.stringify(event));
    vi.advanceTimersByTime(2000);
    handle['new-packet'](JSON.stringify({ ...event, stations: ['Beta@7'] }));
    vi.advanceTimersByTime(500);
    // The first ping's timer fired, but the satellite was heard again 0.5 s ago.
    expect(activity.satellitePing('norby2')).toBeDefined();
    expect(activity.stationPing('Alpha_1@42')).toBeUndefined();
    expect(activity.stationPing('Beta@7')).toBeDefined();
    vi.advanceTimersByTime(2000);
    expect(activity.satellitePing('norby2')).toBeUndefined();
  });

  it('drops malformed events', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    handle['new-packet']('not json');
    handle['new-packet'](JSON.stringify({ ...event, stations: 'Alpha' }));
    expect(activity.pingingSatellites().size).toBe(0);
    expect(activity.ticker()).toHaveLength(0);
  });
});

describe('event stream connection', () => {
  class FakeEventSource {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSED = 2;
    static instances: FakeEventSource[] = [];
    readyState = FakeEventSource.CONNECTING;
    onopen: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private readonly listeners = new Map<string, (e: { data: string }) => void>();
    constructor(readonly url: string) {
      FakeEventSource.instances.push(this);
    }
    addEventListener(name: string, fn: (e: { data: string }) => void) {
      this.listeners.set(name, fn);
    }
    emit(name: string, data: string) {
      this.listeners.get(name)?.({ data });
    }
    close() {
      this.readyState = FakeEventSource.CLOSED;
    }
  }

  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('delivers named events and reopens the stream after it was dropped for good', () => {
    const packets: string[] = [];
    const stop = connectLiveEvents({
      onNewPacket: (e) => packets.push(e.packetId),
      onStationsDelta: () => Promise.resolve('ok'),
    });
    const first = FakeEventSource.instances[0];
    expect(first?.url).toBe('/sse/events?stations=delta');
    first?.emit('new-packet', JSON.stringify(event));
    expect(packets).toEqual(['65f0c0ffee']);

    // The browser retries by itself while CONNECTING; a CLOSED stream is ours to reopen.
    first!.readyState = FakeEventSource.CLOSED;
    first?.onerror?.();
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances).toHaveLength(2);
    FakeEventSource.instances[1]?.emit(
      'new-packet',
      JSON.stringify({ ...event, packetId: 'second' }),
    );
    expect(packets).toEqual(['65f0c0ffee', 'second']);
    stop();
    expect(FakeEventSource.instances[1]?.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('reopens the stream once when a station-list event was missed, not for old streams', async () => {
    const outcomes: ('ok' | 'resync')[] = ['ok', 'resync', 'resync'];
    const got: string[] = [];
    const stop = connectLiveEvents({
      onNewPacket: () => undefined,
      onStationsDelta: (data) => {
        got.push(data);
        return Promise.resolve(outcomes.shift() ?? 'ok');
      },
    });
    const first = FakeEventSource.instances[0];
    first?.emit('stations-delta', 'full');
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.instances).toHaveLength(1);
    // A gap: the stream is replaced (a new one starts with the whole list), once.
    first?.emit('stations-delta', 'gap');
    first?.emit('stations-delta', 'late');
    await vi.advanceTimersByTimeAsync(1000);
    expect(got).toEqual(['full', 'gap', 'late']);
    expect(first?.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.instances[1]?.url).toBe('/sse/events?stations=delta');
    stop();
  });
});
