// Packet sounds are synthesised with Web Audio so the app ships no audio files and works offline.
import type { SoundMode } from '@tinygs/contracts';

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  return context;
}

/** Browsers start audio suspended until a user gesture; call this from one (the mode selector). */
export function unlockAudio(): void {
  void audio()?.resume();
}

function tone(
  ctx: AudioContext,
  at: number,
  opts: { type: OscillatorType; fromHz: number; toHz: number; durationS: number; gain: number },
  destination: AudioNode,
): void {
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = opts.type;
  osc.frequency.setValueAtTime(opts.fromHz, at);
  osc.frequency.exponentialRampToValueAtTime(opts.toHz, at + opts.durationS);
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(opts.gain, at + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, at + opts.durationS);
  osc.connect(env).connect(destination);
  osc.start(at);
  osc.stop(at + opts.durationS + 0.05);
}

function click(ctx: AudioContext, at: number, destination: AudioNode): void {
  const length = Math.floor(ctx.sampleRate * 0.004);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  src.connect(destination);
  src.start(at);
}

/** An echo line: what a radar or sonar return sounds like. */
function echo(ctx: AudioContext, delayS: number, feedback: number): AudioNode {
  const input = ctx.createGain();
  const delay = ctx.createDelay(2);
  const fb = ctx.createGain();
  delay.delayTime.value = delayS;
  fb.gain.value = feedback;
  input.connect(ctx.destination);
  input.connect(delay);
  delay.connect(fb).connect(delay);
  delay.connect(ctx.destination);
  // Cut the feedback loop once the echo has died away so the nodes can be collected.
  setTimeout(() => input.disconnect(), 4000);
  return input;
}

export function playPacketSound(mode: SoundMode): void {
  if (mode === 'off') return;
  const ctx = audio();
  if (!ctx || ctx.state !== 'running') return;
  const t = ctx.currentTime + 0.01;
  switch (mode) {
    case 'beep':
      tone(
        ctx,
        t,
        { type: 'sine', fromHz: 880, toHz: 880, durationS: 0.12, gain: 0.2 },
        ctx.destination,
      );
      break;
    case 'geiger': {
      const count = 3 + Math.floor(Math.random() * 4);
      let at = t;
      for (let i = 0; i < count; i += 1) {
        click(ctx, at, ctx.destination);
        at += 0.02 + Math.random() * 0.09;
      }
      break;
    }
    case 'radar':
      tone(
        ctx,
        t,
        { type: 'sine', fromHz: 1400, toHz: 700, durationS: 0.25, gain: 0.18 },
        echo(ctx, 0.18, 0.35),
      );
      break;
    case 'sonar':
      tone(
        ctx,
        t,
        { type: 'sine', fromHz: 1050, toHz: 980, durationS: 1.2, gain: 0.22 },
        echo(ctx, 0.45, 0.4),
      );
      break;
  }
}
