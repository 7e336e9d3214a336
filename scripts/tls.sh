#!/usr/bin/env bash
# A private CA and the certificates the secure local profile uses (scripts/infra.sh --profile secure),
# made with openssl and cached in a folder:
#
#   scripts/tls.sh ensure DIR [--ip IP]...   make what is missing, expired or expiring within 7 days
#
#   ca.pem, ca.key          the CA (RSA 2048, 825 days); only ca.pem is ever handed to a client
#   server.pem, server.key  server certificate for IP 127.0.0.1, each --ip, DNS localhost (397 days)
#   server-keystore.pem     server.key (PKCS#8) + server.pem + ca.pem: Kafka's PEM keystore file
#   client.pem, client.key  client certificate CN=edu-client (clientAuth) for the mTLS paths
#
# The server certificate is also remade when its SANs differ from the requested ones, and both
# leaf certificates when the CA is remade. Keys are mode 600. Prints "changed" on stdout when
# anything was (re)made, "unchanged" otherwise, so the caller knows to restart its servers.
# Sourced by infra-secure.sh (tls_ensure) or run on its own.
set -euo pipefail

readonly TLS_RENEW_SECONDS=$((7 * 24 * 3600))

tls_log() { printf 'tls: %s\n' "$*" >&2; }

# True if CERT exists and stays valid for at least TLS_RENEW_SECONDS.
tls_fresh() { # cert
  [[ -s $1 ]] && openssl x509 -noout -checkend "$TLS_RENEW_SECONDS" -in "$1" >/dev/null 2>&1
}

tls_new_key() { # file
  (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null)
}

tls_make_ca() { # dir
  tls_new_key "$1/ca.key"
  openssl req -x509 -new -key "$1/ca.key" -sha256 -days 825 -subj '/O=edu-platform local/CN=edu-platform local CA' \
    -addext 'basicConstraints=critical,CA:TRUE,pathlen:0' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
    -out "$1/ca.pem" 2>/dev/null
}

# Sign a leaf certificate for NAME (server|client) with the extensions given as one string.
tls_make_leaf() { # dir name cn extensions
  local dir=$1 name=$2 ext
  ext=$(mktemp)
  printf '%s\n' "$4" >"$ext"
  tls_new_key "$dir/$name.key"
  openssl req -new -key "$dir/$name.key" -subj "/O=edu-platform local/CN=$3" -out "$dir/$name.csr" 2>/dev/null
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 397 -sha256 -extfile "$ext" -out "$dir/$name.pem" 2>/dev/null
  rm -f "$ext" "$dir/$name.csr"
}

tls_san_list() { # ips...
  local san='DNS:localhost,IP:127.0.0.1' ip
  for ip in "$@"; do [[ $ip == 127.0.0.1 ]] || san+=",IP:$ip"; done
  printf '%s' "$san"
}

tls_ensure() { # dir ips...
  local dir=$1 changed=0
  shift
  mkdir -p "$dir"
  chmod 700 "$dir"
  local san
  san=$(tls_san_list "$@")
  if ! tls_fresh "$dir/ca.pem" || [[ ! -s $dir/ca.key ]]; then
    tls_log "making a new local CA in $dir"
    tls_make_ca "$dir"
    rm -f "$dir/server.pem" "$dir/client.pem"
    changed=1
  fi
  if ! tls_fresh "$dir/server.pem" || [[ "$(cat "$dir/server.san" 2>/dev/null)" != "$san" ]]; then
    tls_log "making the server certificate ($san)"
    tls_make_leaf "$dir" server localhost "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=$san"
    printf '%s\n' "$san" >"$dir/server.san"
    # Kafka's PEM keystore wants the key as PKCS#8 followed by the chain.
    (umask 077 && cat "$dir/server.key" "$dir/server.pem" "$dir/ca.pem" >"$dir/server-keystore.pem")
    changed=1
  fi
  if ! tls_fresh "$dir/client.pem"; then
    tls_log "making the client certificate (CN=edu-client)"
    tls_make_leaf "$dir" client edu-client "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
    changed=1
  fi
  chmod 600 "$dir"/*.key "$dir/server-keystore.pem"
  chmod 644 "$dir"/ca.pem "$dir"/server.pem "$dir"/client.pem
  if ((changed)); then printf 'changed\n'; else printf 'unchanged\n'; fi
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  [[ ${1:-} == ensure && -n ${2:-} ]] || {
    echo 'usage: scripts/tls.sh ensure DIR [--ip IP]...' >&2
    exit 2
  }
  dir=$2
  shift 2
  ips=()
  while (($#)); do
    [[ $1 == --ip && -n ${2:-} ]] || {
      echo "tls.sh: unexpected argument '$1'" >&2
      exit 2
    }
    ips+=("$2")
    shift 2
  done
  tls_ensure "$dir" "${ips[@]}"
fi
