"""Query NCCL's RAS service like NCCL's `ncclras` client (src/ras/client.cc, NCCL 2.28.9):
connect to localhost:28028, 'CLIENT PROTOCOL 2', optional 'SET FORMAT json', 'VERBOSE STATUS',
then read until NCCL closes the connection. Usage: ras_client.py text|json OUTFILE."""
import socket
import sys


def main(fmt, out):
    s = socket.create_connection(("127.0.0.1", 28028), timeout=30)
    s.sendall(b"CLIENT PROTOCOL 2\n")
    s.recv(4096)
    if fmt == "json":
        s.sendall(b"SET FORMAT json\n")
        s.recv(4096)
    s.sendall(b"VERBOSE STATUS\n")
    chunks = []
    while True:
        b = s.recv(65536)
        if not b:
            break
        chunks.append(b)
    with open(out, "wb") as f:
        f.write(b"".join(chunks))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
