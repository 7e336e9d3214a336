/**
 * A file an upload spooled to disk for the length of its request (the http layer's `upload()` makes
 * it): a plain descriptor, so the domain code that reads or keeps the file needs no HTTP.
 */
export interface UploadedFile {
  /** A temp file the kit removes when the response ends; rename it away to keep it. */
  path: string;
  /** The client's file name, without any directory part. */
  originalName: string;
  size: number;
  /** As the client declared it: a claim, not a check. */
  mimeType: string;
  /** Hex SHA-256 of the bytes, for idempotency and ledgers. */
  sha256: string;
}
