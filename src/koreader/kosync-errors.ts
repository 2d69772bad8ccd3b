/**
 * KOReader sync errors exactly as the reference server (koreader-sync-server `config/errors.lua`, gin's
 * Accept and JSON checks) sends them: `{code, message}` with its status, which KOReader's kosync
 * plugin reads (401 stops its retry queue; 412 means a wrong Accept header).
 */
export class KosyncError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 412,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'KosyncError';
  }

  toBody() {
    return { code: this.code, message: this.message };
  }
}

export const kosyncErrors = {
  acceptMissing: () => new KosyncError(412, 100, 'Accept header not set.'),
  acceptFormat: () => new KosyncError(412, 101, 'Invalid Accept header format.'),
  acceptVersion: () => new KosyncError(412, 102, 'Unsupported API version specified.'),
  badJson: () => new KosyncError(400, 103, 'Could not parse JSON in body.'),
  notAHash: () => new KosyncError(400, 104, 'Body should be a JSON hash.'),
  unauthorized: () => new KosyncError(401, 2001, 'Unauthorized'),
  /** The reference server has no 403 for permissions: the code stays 2001, the message says what is missing. */
  forbidden: (missing: string) => new KosyncError(403, 2001, `Unauthorized: this API key lacks ${missing}`),
  invalid: (why: string) => new KosyncError(403, 2003, `Invalid request: ${why}`),
  documentMissing: () => new KosyncError(403, 2004, "Field 'document' not provided."),
  registrationDisabled: () =>
    new KosyncError(
      403,
      2005,
      'User registration is disabled. Create an API key in Longbox and enter it as the username.',
    ),
};
