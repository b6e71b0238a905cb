import type { z } from 'zod';

/** Messages of a failed parse, or [] when the value is accepted. */
export function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The first message a form would show for this value, or undefined when it is accepted. */
export function firstMessage(schema: z.ZodType, value: unknown): string | undefined {
  return messages(schema, value)[0];
}
