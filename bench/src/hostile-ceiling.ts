// The ceiling of `bench:hostile`, run as its own process like the server: a bare node:http server
// that answers every request with the same small 400 at once, without reading what it was sent
// (node drains or drops the rest). Node's own header limit (431) applies to it as to the server.
//   tsx hostile-ceiling.ts <port>
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const REFUSAL = Buffer.from('{"statusCode":400,"error":"Bad Request","message":"refused"}');

createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  res
    .writeHead(400, { 'content-type': 'application/json', 'content-length': REFUSAL.length })
    .end(REFUSAL);
}).listen(port, '127.0.0.1');
