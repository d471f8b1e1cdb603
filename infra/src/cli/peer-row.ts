// A registered peer as the CLI prints it: what `status`, `peers list` and `federation status` each
// read about a peer before their own columns.
export type PeerRow = {
  peerId: string;
  name: string;
  role: string;
  baseUrl: string;
  blocked: boolean;
};
