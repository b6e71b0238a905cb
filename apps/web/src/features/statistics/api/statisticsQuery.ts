// GET /v1/statistics is what makes / usable, so it stays off zod: the answer is checked by hand
// against the same shape as the contracts' StatisticsResponseSchema (three non-negative integers),
// which keeps the request and its check in the entry chunk with no schema chunk to wait for.
// statisticsQuery.test.ts holds this check to the contracts schema.
import { queryOptions } from '@tanstack/react-query';
import type { NetworkStatistics } from '@tinygs/contracts';
import { ApiError, api, type ResponseParser } from '../../../lib/api';

function count(body: object, field: keyof NetworkStatistics): number {
  const value: unknown = (body as Record<string, unknown>)[field];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ApiError(`Malformed statistics answer: ${field}`, 200, body);
}

export const statisticsParser: ResponseParser<NetworkStatistics> = {
  parse(body) {
    if (typeof body !== 'object' || body === null) {
      throw new ApiError('Malformed statistics answer', 200, body);
    }
    return {
      members: count(body, 'members'),
      stations: count(body, 'stations'),
      packets: count(body, 'packets'),
    };
  },
};

export const statisticsQuery = queryOptions({
  queryKey: ['statistics'],
  queryFn: ({ signal }) => api('/v1/statistics', statisticsParser, { signal }),
});
