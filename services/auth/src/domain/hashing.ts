import bcrypt from 'bcrypt';
import { AppError } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import type { WorkLimiter } from './work-limiter.js';

/** bcrypt through the limiter: a saturated service answers 429 with Retry-After at once. */
export async function limited<T>(limiter: WorkLimiter, fn: () => Promise<T>): Promise<T> {
  const result = await limiter.run(fn);
  if (!result) throw new AppError('RATE_LIMITED', MSG.busy, { headers: { 'Retry-After': '1' } });
  return result.value;
}

export const hashSecret = (limiter: WorkLimiter, secret: string, cost: number) =>
  limited(limiter, () => bcrypt.hash(secret, cost));

export const compareSecret = (limiter: WorkLimiter, secret: string, hash: string) =>
  limited(limiter, () => bcrypt.compare(secret, hash));
