/** What the console loads from the worker: on its way, there, or the failure to say instead. */
export type Loaded<Ready> =
  | { kind: 'loading' }
  | ({ kind: 'ready' } & Ready)
  | { kind: 'failed'; message: string };
