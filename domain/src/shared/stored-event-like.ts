/** What a fold needs of a stored event; the store gives more. */
export interface StoredEventLike {
  type: string;
  data: unknown;
  streamVersion: number;
}
