import { subscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import type { Socket } from 'node:net';

/** This process's own client connections (fetch's keep-alive pool among them), by the port they reach. */
const open = new Map<Socket, number>();
subscribe('net.client.socket', (message) => {
  const { socket } = message as { socket: Socket };
  socket.once('connect', () => {
    if (socket.remotePort !== undefined) open.set(socket, socket.remotePort);
  });
  socket.once('close', () => open.delete(socket));
});

/**
 * Ends this process's client connections to `port`, once the server there has stopped. Its clients
 * read the end of a pooled connection only when the event loop next polls, and PGlite's work is all
 * promises: a successor started on the same port could be sent a request down a connection already
 * closed ("other side closed"), as a client racing a redeploy is, which is not what those tests test.
 */
export async function endClientConnections(port: number): Promise<void> {
  await Promise.all(
    [...open]
      .filter(([, reached]) => reached === port)
      .map(([socket]) => {
        const closed = once(socket, 'close');
        socket.destroy();
        return closed;
      }),
  );
}
