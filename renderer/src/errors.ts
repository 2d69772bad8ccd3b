/**
 * Failures the caller can act on, with messages written for the person who owns the file. The entrypoint
 * turns a `RenderFailure` into a `RenderResult` value (RPC would keep only an Error's message); anything
 * else is a bug and propagates as a 500 on the API side.
 */
import type { RenderErrorCode } from '../../src/media/image-renderer';

export class RenderFailure extends Error {
  override readonly name = 'RenderFailure';
  readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export const corruptImage = (format: string, detail?: string) =>
  new RenderFailure(
    'corrupt_input',
    `The ${format} image is damaged and cannot be decoded${detail ? ` (${detail})` : ''}`,
  );

export const invalidOption = (message: string) => new RenderFailure('invalid_options', message);

const MiB = 1024 * 1024;
export const formatMiB = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MiB`;
