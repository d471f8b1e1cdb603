// A real DNS server on loopback for the custom-domain tests (dns2, UDP): an authoritative zone the test
// edits as it goes, answered over the wire to the instance's node:dns resolver (DNS_RESOLVERS points
// at it). Names it holds nothing for answer NXDOMAIN; a name with other types answers NODATA, as real
// servers do. A CNAME owner answers its CNAME to A/AAAA queries too, without chasing it.
import dns2 from 'dns2';

const { Packet } = dns2;
// dns2 3.0 (the last release for Node 20) has the response codes but its typings lack them.
const { RCODE } = Packet as unknown as { RCODE: { NXDOMAIN: number; SERVFAIL: number } };

export type DnsRecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_RESOLVERS. */
  address: string;
  set(name: string, type: DnsRecordType, values: string[]): void;
  remove(name: string, type?: DnsRecordType): void;
  /** While set, every query is answered SERVFAIL. */
  failing: boolean;
  /** Queries answered so far. */
  queries: number;
  close(): Promise<void>;
}

const TYPE_CODE: Record<DnsRecordType, number> = {
  TXT: Packet.TYPE.TXT,
  CNAME: Packet.TYPE.CNAME,
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
};

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Map<DnsRecordType, string[]>>();
  const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');
  const state = { failing: false, queries: 0 };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      state.queries++;
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question || state.failing) {
        response.header.rcode = RCODE.SERVFAIL;
        return send(response);
      }
      const records = zone.get(norm(question.name));
      if (!records || records.size === 0) {
        response.header.rcode = RCODE.NXDOMAIN;
        return send(response);
      }
      const base = { name: question.name, class: Packet.CLASS.IN, ttl: 1 };
      // dns2 encodes plain records as its README shows; its typings ask for its Resource class.
      const answer = (r: object) => response.answers.push(r as (typeof response.answers)[number]);
      const cname = records.get('CNAME');
      for (const [type, values] of records) {
        const asked = TYPE_CODE[type] === question.type;
        const viaCname =
          type === 'CNAME' && (question.type === Packet.TYPE.A || question.type === Packet.TYPE.AAAA);
        if (!asked && !viaCname) continue;
        for (const value of values) {
          if (type === 'TXT') answer({ ...base, type: Packet.TYPE.TXT, data: value });
          else if (type === 'CNAME') answer({ ...base, type: Packet.TYPE.CNAME, domain: value });
          else if (!cname) answer({ ...base, type: TYPE_CODE[type], address: value });
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const udp = server.addresses().udp;
  if (!udp) throw new Error('the test DNS server is not listening on UDP');
  const { port } = udp;
  return {
    address: `127.0.0.1:${port}`,
    set(name, type, values) {
      const n = norm(name);
      if (!zone.has(n)) zone.set(n, new Map());
      zone.get(n)!.set(type, values);
    },
    remove(name, type) {
      const n = norm(name);
      if (type) zone.get(n)?.delete(type);
      else zone.delete(n);
    },
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    get queries() {
      return state.queries;
    },
    close: () => server.close(),
  };
}
