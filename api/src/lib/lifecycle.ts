// Where this process is in its life, for GET /api/ready (docs/decisions/32-privacy-and-operations.md):
// 'starting' until it listens with migrations applied, 'stopping' from SIGTERM on.
export type LifecycleState = 'starting' | 'ready' | 'stopping';

export interface Lifecycle {
  state: LifecycleState;
}

export function createLifecycle(): Lifecycle {
  return { state: 'starting' };
}
