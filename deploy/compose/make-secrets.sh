#!/bin/sh
# The secret files compose.yaml reads, made once in deploy/compose/secrets/ (never committed; an
# existing file is kept): a database password and the URL holding it, the key that encrypts secrets in
# the database, the SMTP relay (a placeholder: put your own) and a self-signed certificate for
# portal.lender.example (put your own for a real host). Back up secrets-keys apart from the database:
# without it a restored dump's signing keys and second-factor secrets cannot be opened.
set -eu
cd "$(dirname "$0")"
umask 077
mkdir -p secrets/tls
write() { [ -e "secrets/$1" ] || printf '%s\n' "$2" >"secrets/$1"; }
password="$(openssl rand -hex 24)"
if [ ! -e secrets/postgres-password ]; then
  write postgres-password "$password"
  write database-url "postgres://portal:$password@db:5432/portal"
fi
write secrets-keys "key1:$(openssl rand -base64 32)"
write smtp-url 'smtp://mail.lender.example:587'
if [ ! -e secrets/tls/portal.lender.example.key ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 90 -subj /CN=portal.lender.example \
    -addext subjectAltName=DNS:portal.lender.example \
    -keyout secrets/tls/portal.lender.example.key -out secrets/tls/portal.lender.example.pem 2>/dev/null
fi
# The containers read them as their own users (the portal's uid 10001, postgres): compose
# mounts each file with the mode it has here. The folder stays closed to this machine's other users.
chmod 755 secrets/tls
chmod 644 secrets/postgres-password secrets/database-url secrets/secrets-keys secrets/smtp-url secrets/tls/*.pem
chmod 600 secrets/tls/*.key # nginx reads it as root
chmod 700 secrets
echo "deploy/compose/secrets/: done. Put the SMTP relay in smtp-url before the portal sends e-mail."
