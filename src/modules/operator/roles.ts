import type { OperatorRole } from './operator.entity.ts';

const RANK: Record<OperatorRole, number> = { VIEWER: 1, DEVELOPER: 2, OWNER: 3 };

/** Whether `role` (null: none) is at least `needed`: an owner may do what a developer may, a developer what a viewer may. */
export function roleAllows(role: OperatorRole | null, needed: OperatorRole): boolean {
  return role !== null && RANK[role] >= RANK[needed];
}

/** The higher of two roles (an operator's own row and their every-environment row). */
export function higherRole(a: OperatorRole | null, b: OperatorRole | null): OperatorRole | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}
