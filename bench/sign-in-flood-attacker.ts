// The attacker's side of the flood, in a process of its own (started by sign-in-flood.ts): a load balancer's health check or a
// borrower's browser does not wait behind the attacker's own sockets, so the probe must not either.

const [url = '', concurrency = '0'] = process.argv.slice(2);
const signIns: Record<string, number> = {};
let flooding = true;
let sent = 0;
// 10.0.0.0/8: 16 million addresses, a fresh one for every sign-in.
const nextAddress = () => {
  sent += 1;
  return `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
};

const worker = async () => {
  while (flooding) {
    const status = await fetch(`${url}/api/v1/authn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ username: 'nobody@example.com', password: 'Not-the-password-1' }),
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return String(response.status);
      },
      () => 'connection error',
    );
    signIns[status] = (signIns[status] ?? 0) + 1;
  }
};

const workers = Array.from({ length: Number(concurrency) }, worker);
process.once('message', () => {
  flooding = false;
  void Promise.all(workers).then(() => process.send?.(signIns, () => process.disconnect()));
});
