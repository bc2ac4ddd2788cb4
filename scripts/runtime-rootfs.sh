#!/bin/sh
# Assembles the runtime root filesystem of the oooi images into DIR (the `rootfs` stage of every Dockerfile.*, run
# inside the Node base): Node.js, exactly the shared libraries `ldd` says it links (and the dynamic loader), the
# dpkg records and copyright files of the Debian packages those libraries come from (/var/lib/dpkg/status.d/, the
# distroless layout SBOM scanners read), /etc/passwd and /etc/group with the nonroot user 65532, /tmp and the
# nonroot home. No shell, no package manager, no coreutils: the image runs `node` and nothing else.
# Not copied, because Node.js brings its own: CA certificates (its bundled Mozilla store; the controller trusts the
# ServiceAccount CA explicitly) and time-zone data (ICU's); glibc 2.36 has the files/dns name services built in.
# usage: runtime-rootfs.sh DIR
set -eu
out=$1
node=$(command -v node)
mkdir -p "$out"
# the base's top-level links (merged /usr: /lib -> usr/lib, /lib64 -> usr/lib64, ...)
for l in /*; do [ -L "$l" ] && cp -a "$l" "$out/"; done

# keep PATH: copy PATH into DIR at its canonical directory, following a chain of links (each link kept as a link)
keep() {
  p=$1
  while :; do
    d=$(realpath "$(dirname "$p")"); b=$(basename "$p")
    mkdir -p "$out$d"
    cp -a "$d/$b" "$out$d/"
    [ -L "$d/$b" ] || break
    t=$(readlink "$d/$b")
    case $t in /*) p=$t ;; *) p=$d/$t ;; esac
  done
}

keep "$node"
libs=$(ldd "$node" | awk '/=> \//{print $3} /^[ \t]*\/[^ ]+ \(/{print $1}')
for f in $libs; do keep "$f"; done

# the Debian packages the copied files belong to: their dpkg records and copyright files
mkdir -p "$out/var/lib/dpkg/status.d"
pkgs=$(for f in $libs; do dpkg-query -S "$(realpath "$f")" 2>/dev/null || dpkg-query -S "$f"; done | cut -d: -f1 | sort -u)
for p in $pkgs; do
  dpkg-query -s "$p" > "$out/var/lib/dpkg/status.d/$p"
  doc=/usr/share/doc/${p%%:*}
  if [ -e "$doc/copyright" ]; then
    keep "$doc/copyright"
    [ -L "$doc" ] && cp -a "$doc" "$out/usr/share/doc/"
  fi
done

mkdir -p "$out/etc" "$out/tmp" "$out/home/nonroot"
chmod 1777 "$out/tmp"
chown 65532:65532 "$out/home/nonroot"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$out/etc/group"
# the image has no shell to run this again: prove here that Node.js starts from the copied files alone
chroot "$out" "$node" -e 'process.exit(0)'
