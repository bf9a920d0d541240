import { createServer } from 'node:http';

// The floor under every HTTP figure: bare node:http answering a fixed JSON body, in its own process
// like the real server. What it reaches on this machine, in this run, is what "fast" means here.

const body = process.env.REFERENCE_BODY ?? '{}';
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  // The parent reads the port from the first line.
  console.log(typeof address === 'object' && address ? address.port : 0);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
