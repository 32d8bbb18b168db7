import type { OptionTable } from './option-tables.js';

/**
 * The option tables of the network programs and text tools with a rule (option-tables.ts says
 * how to read a class). Listed from the options OpenSSH 9.2, curl 7.88, GNU Wget 1.21, GNU sed
 * 4.9, GNU findutils 4.9 and GNU coreutils 9.1 document; rsync's from its manual (3.2).
 */

const SSH_COMMON = {
  '-4': '-', '-6': '-', '-A': '-', '-C': '-', '-c': 'v', '-i': 'v', '-l': 'v', '-q': '-', '-v': '-',
  // A configuration file, a PKCS#11 or security-key library, a jump host (another ssh), a control socket.
  '-F': 'code v', '-J': 'code v', '-S': 'code v', '-o': 'v',
} as const;

export const SSH: OptionTable = {
  ...SSH_COMMON,
  '-a': '-', '-f': '-', '-G': '-', '-g': '-', '-K': '-', '-k': '-', '-M': '-', '-N': '-', '-n': '-', '-s': '-',
  '-T': '-', '-t': '-', '-V': '-', '-X': '-', '-x': '-', '-Y': '-', '-y': '-', '-B': 'v', '-b': 'v', '-e': 'v', '-m': 'v', '-p': 'v', '-Q': 'v',
  '-D': 'v', '-L': 'v', '-R': 'v', '-W': 'v', '-w': 'v',
  '-E': 'write v', '-I': 'code v', '-O': 'code v',
};

export const SCP: OptionTable = {
  ...SSH_COMMON,
  '-3': '-', '-B': '-', '-O': '-', '-p': '-', '-R': '-', '-r': '-', '-s': '-', '-T': '-', '-P': 'v', '-X': 'v',
  // -S: the program to connect with; -D: a local sftp server program.
  '-D': 'code v',
};

export const SFTP: OptionTable = {
  ...SSH_COMMON,
  '-a': '-', '-f': '-', '-N': '-', '-p': '-', '-r': '-', '-B': 'v', '-P': 'v', '-R': 'v', '-s': 'v', '-X': 'v',
  // -b: a batch file of sftp commands (`!command` runs a local command); -D: a local server program.
  '-b': 'code v', '-D': 'code v',
};

/**
 * ssh_config keywords given with -o (case does not matter). Those that start a program, load a
 * library or more configuration, or use another control socket or agent are `code`; a keyword
 * not listed is `code` too.
 */
export const SSH_CONFIG_KEYS: Readonly<Record<string, 'plain' | 'write' | 'code'>> = {
  proxycommand: 'code', localcommand: 'code', permitlocalcommand: 'code', knownhostscommand: 'code', include: 'code', match: 'code',
  pkcs11provider: 'code', securitykeyprovider: 'code', identityagent: 'code', controlpath: 'code', controlmaster: 'code', proxyjump: 'code',
  proxyusefdpass: 'code', remotecommand: 'plain', sessiontype: 'plain', stdinnull: 'plain', forkafterauthentication: 'plain',
  userknownhostsfile: 'write', globalknownhostsfile: 'plain', updatehostkeys: 'write', hashknownhosts: 'plain',
  port: 'plain', user: 'plain', hostname: 'plain', identityfile: 'plain', identitiesonly: 'plain', certificatefile: 'plain',
  connecttimeout: 'plain', connectionattempts: 'plain', serveraliveinterval: 'plain', serveralivecountmax: 'plain', tcpkeepalive: 'plain',
  stricthostkeychecking: 'plain', checkhostip: 'plain', hostkeyalias: 'plain', batchmode: 'plain', loglevel: 'plain', compression: 'plain',
  passwordauthentication: 'plain', pubkeyauthentication: 'plain', kbdinteractiveauthentication: 'plain', preferredauthentications: 'plain',
  addkeystoagent: 'plain', forwardagent: 'plain', forwardx11: 'plain', forwardx11trusted: 'plain', requesttty: 'plain', sendenv: 'plain',
  setenv: 'plain', addressfamily: 'plain', bindaddress: 'plain', bindinterface: 'plain', ciphers: 'plain', macs: 'plain', kexalgorithms: 'plain',
  hostkeyalgorithms: 'plain', pubkeyacceptedalgorithms: 'plain', exitonforwardfailure: 'plain', localforward: 'plain', remoteforward: 'plain',
  dynamicforward: 'plain', escapechar: 'plain', visualhostkey: 'plain', controlpersist: 'plain', requiredrsasize: 'plain', ipqos: 'plain',
  verifyhostkeydns: 'plain', canonicalizehostname: 'plain', gssapiauthentication: 'plain', nohostauthenticationforlocalhost: 'plain',
  rekeylimit: 'plain', tunnel: 'plain', tunneldevice: 'plain', clearallforwardings: 'plain', logverbose: 'plain', numberofpasswordprompts: 'plain',
};

/** rsync is not always installed; these are the options its manual documents that a command is likely to use. */
export const RSYNC: OptionTable = {
  '-a': '-', '--archive': '-', '-v': '-', '--verbose': '-', '-q': '-', '--quiet': '-', '-r': '-', '--recursive': '-', '-l': '-', '--links': '-',
  '-L': '-', '--copy-links': '-', '-p': '-', '--perms': '-', '-t': '-', '--times': '-', '-g': '-', '--group': '-', '-o': '-', '--owner': '-',
  '-D': '-', '-H': '-', '--hard-links': '-', '-z': '-', '--compress': '-', '-n': '-', '--dry-run': '-', '-u': '-', '--update': '-',
  '-c': '-', '--checksum': '-', '-h': '-', '--human-readable': '-', '-P': '-', '--progress': '-', '--partial': '-', '--stats': '-',
  '-i': '-', '--itemize-changes': '-', '-x': '-', '--one-file-system': '-', '-R': '-', '--relative': '-', '--existing': '-',
  '--ignore-existing': '-', '--size-only': '-', '-W': '-', '--whole-file': '-', '--inplace': '-', '--append': '-', '-S': '-', '--sparse': '-',
  '--exclude': 'v', '--include': 'v', '--exclude-from': 'v', '--include-from': 'v', '--files-from': 'v', '--filter': 'v', '-f': 'v',
  '-F': '-', '--port': 'v', '--bwlimit': 'v', '--timeout': 'v', '--contimeout': 'v', '--chmod': 'v', '--max-size': 'v', '--min-size': 'v',
  '--compare-dest': 'v', '--link-dest': 'v', '--copy-dest': 'v', '--password-file': 'v',
  '--delete': 'delete', '--delete-before': 'delete', '--delete-during': 'delete', '--delete-after': 'delete', '--delete-delay': 'delete',
  '--delete-excluded': 'delete', '--delete-missing-args': 'delete', '--remove-source-files': 'delete', '--del': 'delete',
  '--backup': 'write', '-b': 'write', '--backup-dir': 'write v', '--suffix': 'v', '--log-file': 'write v', '--write-batch': 'write v',
  '--only-write-batch': 'write v', '--temp-dir': 'write v', '-T': 'write v', '--partial-dir': 'write v',
  // The remote shell, the program run on the other side, options handed to it, a daemon, another user.
  '-e': 'code v', '--rsh': 'code v', '--rsync-path': 'code v', '-M': 'code v', '--remote-option': 'code v', '--daemon': 'code',
  '--config': 'code v', '--copy-as': 'code v', '--read-batch': 'code v', '--early-input': 'code v',
  '--version': '-', '-V': '-', '--help': '-',
};

export const CURL: OptionTable = {
  '--abstract-unix-socket': 'code v', '--alt-svc': 'write v', '--anyauth': '-', '--append': '-', '--aws-sigv4': 'v', '--basic': '-',
  '--cacert': 'v', '--capath': 'v', '--cert': 'v', '--cert-status': '-', '--cert-type': 'v', '--ciphers': 'v', '--compressed': '-',
  '--compressed-ssh': '-', '--config': 'code v', '--connect-timeout': 'v', '--connect-to': 'v', '--continue-at': 'v', '--cookie': 'v',
  '--cookie-jar': 'write v', '--create-dirs': 'write', '--create-file-mode': 'write v', '--crlf': '-', '--crlfile': 'v', '--curves': 'v',
  '--data': 'v', '--data-ascii': 'v', '--data-binary': 'v', '--data-raw': 'v', '--data-urlencode': 'v', '--delegation': 'v', '--digest': '-',
  '--disable': '-', '--disable-eprt': '-', '--disable-epsv': '-', '--disallow-username-in-url': '-', '--dns-interface': 'v',
  '--dns-ipv4-addr': 'v', '--dns-ipv6-addr': 'v', '--dns-servers': 'v', '--doh-cert-status': '-', '--doh-insecure': '-', '--doh-url': 'v',
  '--dump-header': 'write v', '--egd-file': 'code v', '--engine': 'code v', '--etag-compare': 'v', '--etag-save': 'write v',
  '--expect100-timeout': 'v', '--fail': '-', '--fail-early': '-', '--fail-with-body': '-', '--false-start': '-', '--form': 'v',
  '--form-escape': '-', '--form-string': 'v', '--ftp-account': 'v', '--ftp-alternative-to-user': 'v', '--ftp-create-dirs': '-',
  '--ftp-method': 'v', '--ftp-pasv': '-', '--ftp-port': 'v', '--ftp-pret': '-', '--ftp-skip-pasv-ip': '-', '--ftp-ssl-ccc': '-',
  '--ftp-ssl-ccc-mode': 'v', '--ftp-ssl-control': '-', '--get': '-', '--globoff': '-', '--happy-eyeballs-timeout-ms': 'v',
  '--haproxy-protocol': '-', '--head': '-', '--header': 'v', '--help': 'v', '--hostpubmd5': 'v', '--hostpubsha256': 'v', '--hsts': 'write v',
  '--http0': '-', '--http1': '-', '--http2': '-', '--http2-prior-knowledge': '-', '--http3': '-', '--http3-only': '-',
  '--ignore-content-length': '-', '--include': '-', '--insecure': '-', '--interface': 'v', '--ipv4': '-', '--ipv6': '-', '--json': 'v',
  '--junk-session-cookies': '-', '--keepalive-time': 'v', '--key': 'v', '--key-type': 'v', '--krb': 'v', '--libcurl': 'write v',
  '--limit-rate': 'v', '--list-only': '-', '--local-port': 'v', '--location': '-', '--location-trusted': '-', '--login-options': 'v',
  '--mail-auth': 'v', '--mail-from': 'v', '--mail-rcpt': 'v', '--mail-rcpt-allowfails': '-', '--manual': '-', '--max-filesize': 'v',
  '--max-redirs': 'v', '--max-time': 'v', '--metalink': '-', '--negotiate': '-', '--netrc': '-', '--netrc-file': 'v',
  '--netrc-optional': '-', '--no-alpn': '-', '--no-buffer': '-', '--no-clobber': '-', '--no-keepalive': '-', '--no-npn': '-',
  '--no-progress-meter': '-', '--no-sessionid': '-', '--noproxy': 'v', '--ntlm': '-', '--ntlm-wb': '-', '--oauth2-bearer': 'v',
  '--output': 'write v', '--output-dir': 'write v', '--parallel': '-', '--parallel-immediate': '-', '--parallel-max': 'v', '--pass': 'v',
  '--path-as-is': '-', '--pinnedpubkey': 'v', '--post301': '-', '--post302': '-', '--post303': '-', '--preproxy': 'v', '--proto': 'v',
  '--proto-default': 'v', '--proto-redir': 'v', '--proxy': 'v', '--proxy-anyauth': '-', '--proxy-basic': '-', '--proxy-cacert': 'v',
  '--proxy-capath': 'v', '--proxy-cert': 'v', '--proxy-cert-type': 'v', '--proxy-ciphers': 'v', '--proxy-crlfile': 'v',
  '--proxy-digest': '-', '--proxy-header': 'v', '--proxy-insecure': '-', '--proxy-key': 'v', '--proxy-key-type': 'v',
  '--proxy-negotiate': '-', '--proxy-ntlm': '-', '--proxy-pass': 'v', '--proxy-pinnedpubkey': 'v', '--proxy-service-name': 'v',
  '--proxy-ssl-allow-beast': '-', '--proxy-ssl-auto-client-cert': '-', '--proxy-tls13-ciphers': 'v', '--proxy-tlsauthtype': 'v',
  '--proxy-tlspassword': 'v', '--proxy-tlsuser': 'v', '--proxy-tlsv1': '-', '--proxy-user': 'v', '--proxy1': '-', '--proxytunnel': '-',
  '--pubkey': 'v', '--quote': 'v', '--random-file': 'v', '--range': 'v', '--rate': 'v', '--raw': '-', '--referer': 'v',
  '--remote-header-name': 'write', '--remote-name': 'write', '--remote-name-all': 'write', '--remote-time': '-',
  '--remove-on-error': 'write', '--request': 'v', '--request-target': 'v', '--resolve': 'v', '--retry': 'v', '--retry-all-errors': '-',
  '--retry-connrefused': '-', '--retry-delay': 'v', '--retry-max-time': 'v', '--sasl-authzid': 'v', '--sasl-ir': '-', '--service-name': 'v',
  '--show-error': '-', '--silent': '-', '--socks4': 'v', '--socks4a': 'v', '--socks5': 'v', '--socks5-basic': '-', '--socks5-gssapi': '-',
  '--socks5-gssapi-nec': '-', '--socks5-gssapi-service': 'v', '--socks5-hostname': 'v', '--speed-limit': 'v', '--speed-time': 'v',
  '--ssl': '-', '--ssl-allow-beast': '-', '--ssl-auto-client-cert': '-', '--ssl-no-revoke': '-', '--ssl-reqd': '-',
  '--ssl-revoke-best-effort': '-', '--sslv2': '-', '--sslv3': '-', '--stderr': 'write v', '--styled-output': '-',
  '--suppress-connect-headers': '-', '--tcp-fastopen': '-', '--tcp-nodelay': '-', '--telnet-option': 'v', '--tftp-blksize': 'v',
  '--tftp-no-options': '-', '--time-cond': 'v', '--tls-max': 'v', '--tls13-ciphers': 'v', '--tlsauthtype': 'v', '--tlspassword': 'v',
  '--tlsuser': 'v', '--tlsv1': '-', '--tr-encoding': '-', '--trace': 'write v', '--trace-ascii': 'write v', '--trace-time': '-',
  '--unix-socket': 'code v', '--upload-file': 'v', '--url': 'v', '--url-query': 'v', '--use-ascii': '-', '--user': 'v', '--user-agent': 'v',
  '--verbose': '-', '--version': '-', '--write-out': 'v', '--xattr': 'write', '-0': '-', '-1': '-', '-2': '-', '-3': '-', '-4': '-',
  '-6': '-', '-a': '-', '-A': 'v', '-b': 'v', '-B': '-', '-c': 'write v', '-C': 'v', '-d': 'v', '-D': 'write v', '-e': 'v', '-E': 'v',
  '-f': '-', '-F': 'v', '-g': '-', '-G': '-', '-h': '-', '-H': 'v', '-i': '-', '-I': '-', '-j': '-', '-J': 'write', '-k': '-',
  '-K': 'code v', '-l': '-', '-L': '-', '-m': 'v', '-M': '-', '-n': '-', '-N': '-', '-o': 'write v', '-O': 'write', '-p': '-', '-P': 'v',
  '-q': '-', '-Q': 'v', '-r': 'v', '-R': '-', '-s': '-', '-S': '-', '-t': 'v', '-T': 'v', '-u': 'v', '-U': 'v', '-v': '-', '-V': '-',
  '-w': 'v', '-x': 'v', '-X': 'v', '-y': 'v', '-Y': 'v', '-z': 'v', '-Z': '-',
};

export const WGET: OptionTable = {
  '--accept': 'v', '--accept-regex': 'v', '--adjust-extension': '-', '--append-output': 'write v', '--ask-password': '-',
  '--auth-no-challenge': '-', '--background': '-', '--backup-converted': 'write', '--backups': 'write v', '--base': 'v',
  '--bind-address': 'v', '--body-data': 'v', '--body-file': 'v', '--ca-certificate': 'v', '--ca-directory': 'v', '--certificate': 'v',
  '--certificate-type': 'v', '--ciphers': 'v', '--compression': 'v', '--config': 'code v', '--connect-timeout': 'v',
  '--content-disposition': '-', '--content-on-error': '-', '--continue': '-', '--convert-file-only': '-', '--convert-links': 'write',
  '--crl-file': 'v', '--cut-dirs': 'v', '--debug': '-', '--default-page': 'v', '--delete-after': 'write', '--directory-prefix': 'write v',
  '--dns-timeout': 'v', '--domains': 'v', '--exclude-directories': 'v', '--exclude-domains': 'v', '--execute': 'code v', '--follow-ftp': '-',
  '--follow-tags': 'v', '--force-directories': '-', '--force-html': '-', '--ftp-password': 'v', '--ftp-user': 'v',
  '--ftps-clear-data-connection': '-', '--ftps-fallback-to-ftp': '-', '--ftps-implicit': '-', '--ftps-resume-ssl': '-', '--header': 'v',
  '--help': '-', '--hsts-file': '-', '--http-password': 'v', '--http-user': 'v', '--https-only': '-', '--ignore-case': '-',
  '--ignore-length': '-', '--ignore-tags': 'v', '--include-directories': 'v', '--inet4-only': '-', '--inet6-only': '-', '--input-file': 'v',
  '--keep-session-cookies': '-', '--level': 'v', '--limit-rate': 'v', '--load-cookies': 'v', '--local-encoding': 'v', '--max-redirect': '-',
  '--method': 'v', '--mirror': '-', '--no-cache': '-', '--no-check-certificate': '-', '--no-clobber': '-', '--no-config': '-',
  '--no-cookies': '-', '--no-directories': '-', '--no-dns-cache': '-', '--no-glob': '-', '--no-host-directories': '-', '--no-hsts': '-',
  '--no-http-keep-alive': '-', '--no-if-modified-since': '-', '--no-iri': '-', '--no-netrc': '-', '--no-parent': '-',
  '--no-passive-ftp': '-', '--no-proxy': '-', '--no-remove-listing': '-', '--no-use-server-timestamps': '-', '--no-verbose': '-',
  '--no-warc-compression': '-', '--no-warc-digests': '-', '--no-warc-keep-log': '-', '--output-document': 'v', '--output-file': 'write v',
  '--page-requisites': '-', '--password': 'v', '--pinnedpubkey': 'v', '--post-data': 'v', '--post-file': 'v', '--prefer-family': 'v',
  '--preserve-permissions': '-', '--private-key': 'v', '--private-key-type': 'v', '--progress': 'v', '--protocol-directories': '-',
  '--proxy-password': 'v', '--proxy-user': 'v', '--quiet': '-', '--quota': 'v', '--random-wait': '-', '--read-timeout': 'v',
  '--recursive': '-', '--referer': 'v', '--regex-type': 'v', '--reject': 'v', '--reject-regex': 'v', '--rejected-log': 'write v',
  '--relative': '-', '--remote-encoding': 'v', '--report-speed': 'v', '--restrict-file-names': 'v', '--retr-symlinks': '-',
  '--retry-connrefused': '-', '--retry-on-http-error': 'v', '--save-cookies': 'write v', '--save-headers': '-', '--secure-protocol': 'v',
  '--server-response': '-', '--show-progress': '-', '--span-hosts': '-', '--spider': '-', '--start-pos': 'v', '--strict-comments': '-',
  '--timeout': 'v', '--timestamping': '-', '--tries': 'v', '--trust-server-names': '-', '--unlink': 'write', '--use-askpass': 'code v',
  '--user': 'v', '--user-agent': 'v', '--verbose': '-', '--version': '-', '--wait': 'v', '--waitretry': 'v', '--warc-cdx': '-',
  '--warc-dedup': 'v', '--warc-file': 'write v', '--warc-header': 'v', '--warc-max-size': 'v', '--warc-tempdir': 'write v',
  '--xattr': 'write', '-4': '-', '-6': '-', '-a': 'write v', '-A': 'v', '-b': '-', '-B': 'v', '-c': '-', '-d': '-', '-D': 'v',
  '-e': 'code v', '-E': '-', '-F': '-', '-h': '-', '-H': '-', '-i': 'v', '-I': 'v', '-k': 'write', '-K': 'write', '-l': 'v', '-L': '-',
  '-m': '-', '-N': '-', '-nc': '-', '-nd': '-', '-nH': '-', '-np': '-', '-nv': '-', '-o': 'write v', '-O': 'v', '-p': '-', '-P': 'write v',
  '-q': '-', '-Q': 'v', '-r': '-', '-R': 'v', '-S': '-', '-t': 'v', '-T': 'v', '-U': 'v', '-v': '-', '-V': '-', '-w': 'v', '-x': '-',
  '-X': 'v',
};

export const SED: OptionTable = {
  '-n': '-', '--quiet': '-', '--silent': '-', '--debug': '-', '-e': 'v', '--expression': 'v', '-E': '-', '-r': '-', '--regexp-extended': '-',
  '--follow-symlinks': '-', '-l': 'v', '--line-length': 'v', '--posix': '-', '-s': '-', '--separate': '-', '--sandbox': '-', '-u': '-',
  '--unbuffered': '-', '-z': '-', '--null-data': '-', '--help': '-', '--version': '-',
  // Edits in place (an optional suffix is attached: -i.bak, --in-place=.bak).
  '-i': 'write', '--in-place': 'write',
  // A script read from a file: its `e` and `w` commands are not seen.
  '-f': 'code v', '--file': 'code v',
};

/** sort: -o and -T write; --compress-program runs a program. */
export const SORT: OptionTable = {
  '-b': '-', '--ignore-leading-blanks': '-', '-d': '-', '--dictionary-order': '-', '-f': '-', '--ignore-case': '-', '-g': '-',
  '--general-numeric-sort': '-', '-i': '-', '--ignore-nonprinting': '-', '-M': '-', '--month-sort': '-', '-h': '-', '--human-numeric-sort': '-',
  '-n': '-', '--numeric-sort': '-', '-R': '-', '--random-sort': '-', '--random-source': 'v', '-r': '-', '--reverse': '-', '--sort': 'v',
  '-V': '-', '--version-sort': '-', '--batch-size': 'v', '-c': '-', '--check': '-', '-C': '-', '--debug': '-', '--files0-from': 'v',
  '-k': 'v', '--key': 'v', '-m': '-', '--merge': '-', '-s': '-', '--stable': '-', '-S': 'v', '--buffer-size': 'v', '-t': 'v',
  '--field-separator': 'v', '--parallel': 'v', '-u': '-', '--unique': '-', '-z': '-', '--zero-terminated': '-', '--help': '-', '--version': '-',
  '-o': 'write v', '--output': 'write v', '-T': 'write v', '--temporary-directory': 'write v', '--compress-program': 'code v',
};

/**
 * find's options, tests and actions. -exec, -execdir, -ok and -okdir run the command that follows
 * them, which is judged as a command of its own (command-rules.ts); -delete deletes; -fls and
 * -fprint* write; -D and -O are debugging and optimisation options.
 */
export const FIND: OptionTable = {
  '-H': '-', '-L': '-', '-P': '-', '-D': 'v', '-O': '-', '-Olevel': '-', '-d': '-', '-daystart': '-', '-depth': '-', '-follow': '-',
  '-help': '-', '--help': '-', '-version': '-', '--version': '-', '-ignore_readdir_race': '-', '-noignore_readdir_race': '-', '-mount': '-',
  '-noleaf': '-', '-nowarn': '-', '-warn': '-', '-xdev': '-', '-maxdepth': 'v', '-mindepth': 'v', '-regextype': 'v', '-files0-from': 'v',
  '-amin': 'v', '-anewer': 'v', '-atime': 'v', '-cmin': 'v', '-cnewer': 'v', '-context': 'v', '-ctime': 'v', '-empty': '-', '-executable': '-',
  '-false': '-', '-fstype': 'v', '-gid': 'v', '-group': 'v', '-ilname': 'v', '-iname': 'v', '-inum': 'v', '-ipath': 'v', '-iregex': 'v',
  '-iwholename': 'v', '-links': 'v', '-lname': 'v', '-mmin': 'v', '-mtime': 'v', '-name': 'v', '-newer': 'v', '-newerXY': 'v', '-nogroup': '-',
  '-nouser': '-', '-path': 'v', '-perm': 'v', '-readable': '-', '-regex': 'v', '-samefile': 'v', '-size': 'v', '-true': '-', '-type': 'v',
  '-uid': 'v', '-used': 'v', '-user': 'v', '-wholename': 'v', '-writable': '-', '-xtype': 'v', '-not': '-', '-n': '-',
  '-ls': '-', '-print': '-', '-print0': '-', '-printf': 'v', '-prune': '-', '-quit': '-',
  '-delete': 'delete', '-fls': 'write v', '-fprint': 'write v', '-fprint0': 'write v', '-fprintf': 'write v',
  '-exec': '-', '-execdir': '-', '-ok': '-', '-okdir': '-',
  '-a': '-', '-and': '-', '-o': '-', '-or': '-',
};

/**
 * Documented options of allow-listed programs that the allow-list does not let run unasked, and
 * what they add when asked ('-': nothing beyond being asked). The option-table test checks that
 * every documented option is either allowed or listed here.
 */
export const ASKED_OPTIONS: Readonly<Record<string, OptionTable>> = {
  ls: {
    '--context': '-', '--dereference-command-line': '-', '--dereference-command-line-symlink-to-dir': '-', '--dired': '-', '--file-type': '-',
    '--help': '-', '--hide-control-chars': '-', '--hyperlink': '-', '--ignore-backups': '-', '--kibibytes': '-', '--show-control-chars': '-',
    '--tabsize': '-', '--version': '-', '--zero': '-', '-D': '-', '-T': '-',
  },
  cat: { '--help': '-', '--version': '-' },
  head: { '--help': '-', '--version': '-' },
  tail: { '--follow': '-', '--help': '-', '--max-unchanged-stats': '-', '--pid': '-', '--retry': '-', '--sleep-interval': '-', '--version': '-', '-f': '-', '-F': '-', '-s': '-' },
  grep: {
    '--binary': '-', '--devices': '-', '--directories': '-', '--exclude-from': '-', '--group-separator': '-', '--help': '-', '--line-buffered': '-',
    '--no-group-separator': '-', '--no-ignore-case': '-', '--version': '-', '-d': '-', '-D': '-', '-NUM': '-', '-V': '-',
  },
};
