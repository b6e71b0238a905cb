// One JSON error shape for every failure: { error, issues? }. Routes throw HttpError; the app's
// error handler turns it, validation failures and database outages into answers.
export interface Issue {
  path: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, issues?: Issue[]) =>
  new HttpError(400, message, issues);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Not allowed') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message = 'Too many requests, please try again later.') =>
  new HttpError(429, message);
