/**
 * The SAML service provider's signing key and certificate: they sign every AuthnRequest, and the
 * certificate is published in the SP metadata that each university registers once.
 *
 * Settings:
 * - `SAML_SP_KEY`: the SP's private key, PEM text or the path of a PEM file.
 * - `SAML_SP_CERT`: its X.509 certificate, PEM text or the path of a PEM file.
 * Both or neither. Unset, a key and a self-signed certificate are generated once into
 * `DATA_DIR/saml-sp.pem` and reused after a restart: a new certificate would break every
 * university's registration. Set them when running several processes without a shared DATA_DIR
 * (each process would otherwise sign with a different key than the one in the metadata).
 */
import { X509Certificate, createPrivateKey, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export interface SamlSpCredentials {
  privateKeyPem: string;
  certificatePem: string;
}

const GENERATED_FILE = 'saml-sp.pem';
/** Self-signed SAML certificates are trusted as published keys, not through their dates; ten years. */
const GENERATED_VALIDITY_DAYS = 3650;

export async function loadSamlSpCredentials(
  dataDir: string,
  env: { key?: string; cert?: string },
): Promise<SamlSpCredentials> {
  const key = env.key?.trim() || undefined;
  const cert = env.cert?.trim() || undefined;
  if (key && cert) {
    return checkedPair(
      pemBlock(await pemText(key, 'SAML_SP_KEY'), 'PRIVATE KEY', 'SAML_SP_KEY'),
      pemBlock(await pemText(cert, 'SAML_SP_CERT'), 'CERTIFICATE', 'SAML_SP_CERT'),
      'SAML_SP_KEY and SAML_SP_CERT',
    );
  }
  if (key || cert) throw new Error('SAML_SP_KEY and SAML_SP_CERT: set both or neither');

  const file = path.join(dataDir, GENERATED_FILE);
  if (!existsSync(file)) await generateInto(dataDir, file);
  const text = await readFile(file, 'utf8');
  return checkedPair(pemBlock(text, 'PRIVATE KEY', file), pemBlock(text, 'CERTIFICATE', file), file);
}

/** PEM text as given (escaped `\n` allowed, as env files often carry it), or a file's content. */
async function pemText(value: string, name: string): Promise<string> {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return await readFile(value, 'utf8');
  } catch {
    throw new Error(`${name}: neither PEM text nor a readable file: ${value}`);
  }
}

/** The first PEM block of a kind (`PRIVATE KEY` also matches `RSA PRIVATE KEY`), so one file may hold both. */
function pemBlock(text: string, kind: 'PRIVATE KEY' | 'CERTIFICATE', source: string): string {
  const label = kind === 'PRIVATE KEY' ? '(?:RSA |EC )?PRIVATE KEY' : 'CERTIFICATE';
  const match = new RegExp(`-----BEGIN (${label})-----[\\s\\S]+?-----END \\1-----`).exec(text);
  if (!match) throw new Error(`${source}: no ${kind} PEM block found`);
  return `${match[0]}\n`;
}

/** Fails at start-up, not at the first sign-in, when the key is unreadable or not the certificate's. */
function checkedPair(privateKeyPem: string, certificatePem: string, source: string): SamlSpCredentials {
  let matches: boolean;
  try {
    matches = new X509Certificate(certificatePem).checkPrivateKey(createPrivateKey(privateKeyPem));
  } catch (err) {
    throw new Error(`${source}: cannot read the key or certificate (${(err as Error).message})`);
  }
  if (!matches) throw new Error(`${source}: the private key does not belong to the certificate`);
  return { privateKeyPem, certificatePem };
}

/**
 * Node's crypto can read X.509 certificates but not make them, so `openssl` (present wherever the
 * Debian ca-certificates package is) makes the key and the self-signed certificate. The result is
 * written to a temporary file and hard-linked into place: linking fails if another process sharing
 * DATA_DIR got there first, and then both use that process's pair.
 */
async function generateInto(dataDir: string, file: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const work = await mkdtemp(path.join(dataDir, '.saml-sp-'));
  try {
    const keyFile = path.join(work, 'key.pem');
    const certFile = path.join(work, 'cert.pem');
    try {
      await promisify(execFile)(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-sha256',
          '-nodes',
          '-days',
          String(GENERATED_VALIDITY_DAYS),
          '-subj',
          '/CN=Campus Market SAML service provider',
          '-set_serial',
          `0x${randomBytes(16).toString('hex')}`,
          '-keyout',
          keyFile,
          '-out',
          certFile,
        ],
        { timeout: 60_000 },
      );
    } catch (err) {
      throw new Error(
        `Cannot generate the SAML signing certificate with openssl (${(err as Error).message}); ` +
          'install openssl or set SAML_SP_KEY and SAML_SP_CERT',
      );
    }
    const both = path.join(work, 'both.pem');
    await writeFile(both, (await readFile(keyFile, 'utf8')) + (await readFile(certFile, 'utf8')), {
      mode: 0o600,
    });
    try {
      await link(both, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    await unlink(both);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
