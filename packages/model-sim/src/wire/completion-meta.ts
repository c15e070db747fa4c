/** The fields every completion object and every stream chunk of one response share. */
export interface CompletionMeta {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}
