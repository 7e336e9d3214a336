export const DECISIONS: readonly string[] = [];
