#!/bin/sh
# Makes the test certificate authority and the one server certificate of the record tests' loopback servers
# (merchant, PSP, ACS and bank under their own host names). Test-only: the keys are public, nothing trusts this CA
# but the tests (`plainview record --ca-file ca.pem`). Run from this folder; valid for 20 years.
set -eu
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 7300 \
  -subj "/CN=Plainview test CA (record tests only)" -keyout ca-key.pem -out ca.pem \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=shop.example.com" \
  -keyout server-key.pem -out server.csr
printf '%s\n' "subjectAltName=DNS:shop.example.com,DNS:psp.example.net,DNS:acs.bank.example,DNS:bank.example,DNS:localhost,IP:127.0.0.1" \
  "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 7300 -extfile server.ext \
  -out server.pem
rm -f server.csr server.ext ca.srl ca-key.pem
