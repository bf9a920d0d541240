import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';

// Every key pair the servers make comes from here. Node 20 deadlocks when a garbage collection, run
// while a key object is exported (as a JWK), finalizes the generation job that made the key: the two
// share a lock, which the export holds. It hung a test process; a probe making product signing keys
// in a loop (--max-semi-space-size=1) hung in six runs of six, after 1,400 to 14,900 keys (two shorter
// runs, of 3,000 and 5,000, ended). So the generation encodes the pair, and each key is read back as a
// key object of its own, which no job shares: 30,000 keys that way, twice, without a hang. Catching
// the deadlock takes thousands of keys (17 s of CPU), too many for a test of the suite.

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const keyObjectsOf = ({ privateKey, publicKey }: { privateKey: Buffer; publicKey: Buffer }): KeyPair => ({
  privateKey: createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }),
  publicKey: createPublicKey({ key: publicKey, format: 'der', type: 'spki' }),
});

// The encodings are written out at each call: from a shared constant, the typings pick the overload
// that returns key objects.

/** A P-256 key pair (ES256). */
export const newEcKeyPair = (): KeyPair =>
  keyObjectsOf(
    generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    }),
  );

const generateKeyPairAsync = promisify(generateKeyPair);

/** An RSA key pair of `modulusLength` bits, made on libuv's thread pool rather than the event loop. */
export const newRsaKeyPair = async (modulusLength: number): Promise<KeyPair> =>
  keyObjectsOf(
    await generateKeyPairAsync('rsa', {
      modulusLength,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    }),
  );
