// What a long-running part of the server is (src/parts.ts lists them): started with the shared
// context, it returns how to stop it. A leaf file, so the parts and the list do not import each other.
import type { AppContext, Services } from './context';

export interface RunningPart {
  stop(): Promise<void>;
  /**
   * What the part offers the parts started after it and the HTTP app. server.ts puts it in
   * `ctx.services` while the part runs and takes it out before stopping the part.
   */
  services?: Partial<Services>;
}

export interface Part {
  name: string;
  /** Return null when the part is switched off by configuration. */
  start(ctx: AppContext): Promise<RunningPart | null>;
}
