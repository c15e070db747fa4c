/** A worker's hold on a session. `epoch` is the fencing token every write checks. */
export interface Lease {
  sessionId: string;
  epoch: number;
  workerId: string;
}
