#!/bin/sh
# Serves TLS_PEM (certificate chain and private key in one PEM file, e.g. mounted from a secret), or
# else a self-signed certificate for TLS_HOSTNAME, made on the container's first start and kept in
# /var/lib/haproxy/tls (its certificate alone in self-signed.crt, for clients to trust).
# Plain HTTP is redirected to PUBLIC_URL (default https://TLS_HOSTNAME).
set -eu
hostname=${TLS_HOSTNAME:-localhost}
PUBLIC_URL=${PUBLIC_URL:-https://$hostname}
export PUBLIC_URL="${PUBLIC_URL%/}"

if [ -z "${TLS_PEM:-}" ]; then
  dir=/var/lib/haproxy/tls
  TLS_PEM=$dir/self-signed.pem
  if [ ! -s "$TLS_PEM" ]; then
    umask 077
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
      -subj "/CN=$hostname" -addext "subjectAltName=DNS:$hostname" -addext "extendedKeyUsage=serverAuth" \
      -keyout "$dir/self-signed.key" -out "$dir/self-signed.crt" 2>/dev/null
    cat "$dir/self-signed.crt" "$dir/self-signed.key" > "$TLS_PEM"
    rm "$dir/self-signed.key"
    chmod 0644 "$dir/self-signed.crt"
  fi
  echo "tributary-proxy: serving a self-signed certificate for $hostname ($dir/self-signed.crt); set TLS_PEM to serve your own" >&2
fi
export TLS_PEM

haproxy -c -q -f /etc/haproxy/tributary.cfg
exec haproxy -db -f /etc/haproxy/tributary.cfg
