<?php
// Writes src/gateway/__tests__/fixtures/callback-vectors.json: callback bodies and their verify_hash
// computed by PHP itself (serialize, ksort, html_entity_decode, json_encode, hash_hmac), so the
// TypeScript verifier is tested against values it did not compute (spec §6.3).
//
// Run from the repository root:  php scripts/make-callback-vectors.php
// (Debian: apt-get install -y php-cli). The tests only read the JSON file; they never need PHP.

declare(strict_types=1);

const OUT = __DIR__ . '/../src/gateway/__tests__/fixtures/callback-vectors.json';
const JSON_OUT_FLAGS = JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE;

$secretKeys = [
    'ascii' => 'sk_live_9f8e7d6c5b4a/+=&"quoted"',
    'utf8' => 'ключ-🔑-secret',
];

// Spec §6.1: every invoice callback field, white-label extras included.
$invoice = [
    'txn_id' => 'INV-7a1f3c9e2b',
    'ipn_type' => 'invoice',
    'merchant' => 'Café & "Bistro" / Shop',
    'merchant_id' => '4b8f1e2a-93d0-4c6e-a1b2-c3d4e5f60718',
    'amount' => '0.00123456',
    'currency' => 'BTC',
    'order_number' => 'order_42/2026',
    'order_name' => 'Café – Ünïcødé 🚀',
    'confirmations' => '2',
    'status' => 'completed',
    'source_currency' => 'EUR',
    'source_amount' => '123.45',
    'source_rate' => '100000.00000001',
    'comment' => "Paid <in full> & on time: it's \"done\" / ok ✓",
    'invoice_commission' => '0.00001234',
    'invoice_sum' => '0.00122222',
    'invoice_total_sum' => '0.00123456',
    'switch_id' => 'INV-0000000001',
    'psys_cid' => 'BTC_TEST',
    'pending_amount' => '0',
    'qr_code' => 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
    'tx_urls' => [
        'https://explorer.example/tx/ab12?network=test&amp;ref=shop',
        'https://explorer.example/tx/cd34?a=1&amp;b=&quot;x&quot;&amp;c=&#39;y&#39;&amp;d=&eacute;',
    ],
    'expire_utc' => 1763712000,
];

// Spec §6.2: every deposit callback field.
$deposit = [
    'amount' => '12.5',
    'comment' => 'Dépôt reçu — 入金 🎉',
    'confirmations' => '6',
    'currency' => 'USDT',
    'deposit_sum' => '12.5',
    'deposit_uid' => 'user/äöü/1',
    'invoice_commission' => '0.0625',
    'invoice_sum' => '12.4375',
    'invoice_total_sum' => '12.5',
    'ipn_type' => 'pay_in',
    'merchant' => 'Shop & Co',
    'merchant_id' => 'm-77',
    'pending_amount' => '0',
    'psys_cid' => 'USDT_TRX',
    'qr_code' => 'data/qr+code==',
    'source_amount' => '11.9',
    'source_currency' => 'EUR',
    'source_rate' => '0.952',
    'status' => 'completed',
    'tx_urls' => ['https://tronscan.example/#/transaction/9f?x=1&amp;y=2'],
    'txn_id' => 'DEP-123',
    'wallet_hash' => 'TXYZabc123',
];

/** What a PHP receiver signs for a form callback: spec §6.3, first bullet. */
function form_signing_array(array $post): array
{
    unset($post['verify_hash']);
    if (isset($post['expire_utc'])) {
        $post['expire_utc'] = (string) $post['expire_utc'];
    }
    if (isset($post['tx_urls'])) {
        $post['tx_urls'] = is_array($post['tx_urls'])
            ? array_map('html_entity_decode', $post['tx_urls'])
            : html_entity_decode($post['tx_urls']);
    }
    ksort($post);
    return $post;
}

function form_hash(array $post, string $key): string
{
    return hash_hmac('sha1', serialize(form_signing_array($post)), $key);
}

/** Every scalar as a string, as a form receiver holds it. */
function stringify(array $fields): array
{
    return array_map(fn($v) => is_array($v) ? array_map('strval', $v) : (string) $v, $fields);
}

/** A multipart/form-data body written by hand; $arrayStyle 'indexed' (tx_urls[0]) or 'append' (tx_urls[]). */
function multipart_body(array $fields, string $boundary, string $arrayStyle): string
{
    $body = "preamble that receivers ignore\r\n";
    foreach ($fields as $name => $value) {
        $values = is_array($value) ? $value : [$value];
        foreach ($values as $i => $item) {
            $partName = is_array($value) ? ($arrayStyle === 'append' ? "{$name}[]" : "{$name}[{$i}]") : $name;
            $body .= "--{$boundary}\r\nContent-Disposition: form-data; name=\"{$partName}\"\r\n\r\n{$item}\r\n";
        }
    }
    return $body . "--{$boundary}--\r\n";
}

$vectors = ['generator' => 'scripts/make-callback-vectors.php', 'php' => PHP_VERSION, 'secretKeys' => $secretKeys];

// ---- Form vectors ----
$form = [];
$samples = ['invoice' => $invoice, 'deposit' => $deposit];
foreach ($samples as $sampleName => $fields) {
    foreach ($secretKeys as $keyName => $key) {
        $hash = form_hash($fields, $key);
        $withHash = stringify($fields) + ['verify_hash' => $hash];
        $expected = form_signing_array(stringify($fields));

        $bodies = [
            'urlencoded RFC1738 (+ for space)' => [
                'application/x-www-form-urlencoded',
                http_build_query($withHash, '', '&', PHP_QUERY_RFC1738),
            ],
            'urlencoded RFC3986 (%20 for space)' => [
                'application/x-www-form-urlencoded; charset=UTF-8',
                http_build_query($withHash, '', '&', PHP_QUERY_RFC3986),
            ],
            'urlencoded with tx_urls[] and unencoded brackets' => [
                'application/x-www-form-urlencoded',
                str_replace(['%5B', '%5D'], ['[', ']'], preg_replace('/tx_urls%5B\d+%5D/', 'tx_urls[]', http_build_query($withHash))),
            ],
            'multipart indexed list' => [
                'multipart/form-data; boundary=----PhpBoundary7MA4YWxkTrZu0gW',
                multipart_body($withHash, '----PhpBoundary7MA4YWxkTrZu0gW', 'indexed'),
            ],
            'multipart appended list, mixed-case content type' => [
                'Multipart/Form-Data; Boundary="x-boundary:42"',
                multipart_body(array_reverse($withHash, true), 'x-boundary:42', 'append'),
            ],
        ];
        foreach ($bodies as $variant => [$contentType, $body]) {
            // The body must read back, through PHP's own urlencoded parser, to the same signature.
            if (str_starts_with($contentType, 'application/x-www-form-urlencoded')) {
                parse_str($body, $post);
                if (form_hash($post, $key) !== $hash || $post['verify_hash'] !== $hash) {
                    fwrite(STDERR, "urlencoded body does not read back: {$sampleName} {$variant}\n");
                    exit(1);
                }
            }
            $form[] = [
                'name' => "{$sampleName}, {$keyName} key, {$variant}",
                'secretKey' => $keyName,
                'contentType' => $contentType,
                'body' => $body,
                'verifyHash' => $hash,
                'fields' => $expected,
            ];
        }
    }
}

// tx_urls sent as one string, not a list (spec §6.3 decodes entities in it either way).
$single = $invoice;
$single['tx_urls'] = 'https://explorer.example/tx/ef56?x=1&amp;y=&lt;2&gt;';
$hash = form_hash($single, $secretKeys['ascii']);
$form[] = [
    'name' => 'invoice with tx_urls as a single string',
    'secretKey' => 'ascii',
    'contentType' => 'application/x-www-form-urlencoded',
    'body' => http_build_query(stringify($single) + ['verify_hash' => $hash]),
    'verifyHash' => $hash,
    'fields' => form_signing_array(stringify($single)),
];
$vectors['form'] = $form;

// The PHP serialize() text of the invoice, for readers of the fixture (and a check of the format).
$vectors['serializeExample'] = serialize(form_signing_array(stringify($invoice)));

// ---- JSON vectors ----
$flagSets = [
    'slashes escaped, unicode escaped (PHP default)' => 0,
    'slashes raw, unicode escaped' => JSON_UNESCAPED_SLASHES,
    'slashes escaped, unicode raw' => JSON_UNESCAPED_UNICODE,
    'slashes raw, unicode raw' => JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE,
];
$styleOf = [
    0 => ['slashes' => 'escaped', 'unicode' => 'escaped'],
    JSON_UNESCAPED_SLASHES => ['slashes' => 'raw', 'unicode' => 'escaped'],
    JSON_UNESCAPED_UNICODE => ['slashes' => 'escaped', 'unicode' => 'raw-php'],
    JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE => ['slashes' => 'raw', 'unicode' => 'raw-php'],
];

/** Expected fields: JSON scalars as the verifier returns them (numbers as their lexeme). */
function expected_json_fields(array $fields): array
{
    return array_map(fn($v) => is_array($v) ? $v : (is_string($v) ? $v : json_encode($v)), $fields);
}

$json = [];
$jsonSamples = ['invoice' => $invoice, 'deposit' => $deposit];
foreach ($jsonSamples as $sampleName => $fields) {
    foreach ($flagSets as $variant => $flags) {
        foreach ($secretKeys as $keyName => $key) {
            $signedText = json_encode($fields, $flags);
            $hash = hash_hmac('sha1', $signedText, $key);
            $json[] = [
                'name' => "{$sampleName}, {$keyName} key, {$variant}",
                'secretKey' => $keyName,
                'contentType' => 'application/json',
                'body' => json_encode($fields + ['verify_hash' => $hash], $flags),
                'verifyHash' => $hash,
                'fields' => expected_json_fields($fields),
                'style' => $styleOf[$flags],
                'signedText' => $signedText,
                'numberFields' => array_keys(array_filter($fields, fn($v) => is_int($v))),
            ];
        }
    }
    // Pretty-printed in transit: the signature is over the compact form (spec §6.3).
    $hash = hash_hmac('sha1', json_encode($fields), $secretKeys['ascii']);
    $json[] = [
        'name' => "{$sampleName}, pretty-printed body, charset parameter",
        'secretKey' => 'ascii',
        'contentType' => 'application/json; charset=utf-8',
        'body' => json_encode(['verify_hash' => $hash] + $fields, JSON_PRETTY_PRINT),
        'verifyHash' => $hash,
        'fields' => expected_json_fields($fields),
    ];
}

// Numbers with many digits: the lexeme is signed and must come back unchanged.
$bigNumbers = [
    'txn_id' => 'INV-big',
    'amount' => '__N1__',
    'source_rate' => '__N2__',
    'confirmations' => '__N3__',
    'expire_utc' => '__N4__',
];
$lexemes = ['__N1__' => '123456789.123456789012345678', '__N2__' => '0.00000001', '__N3__' => '1E+2', '__N4__' => '1763712000000'];
$signedText = json_encode($bigNumbers);
foreach ($lexemes as $placeholder => $lexeme) {
    $signedText = str_replace("\"{$placeholder}\"", $lexeme, $signedText);
}
$hash = hash_hmac('sha1', $signedText, $secretKeys['ascii']);
$json[] = [
    'name' => 'numbers with many digits keep their lexeme',
    'secretKey' => 'ascii',
    'contentType' => 'application/json',
    'body' => substr($signedText, 0, -1) . ',"verify_hash":"' . $hash . '"}',
    'verifyHash' => $hash,
    'fields' => array_map(fn($v) => $lexemes[$v] ?? $v, $bigNumbers),
];

// PHP keeps U+2028/U+2029 escaped even with JSON_UNESCAPED_UNICODE.
$lineSeparators = ['txn_id' => 'INV-ls', 'comment' => "line\u{2028}separator\u{2029}paragraph/é"];
$flags = JSON_UNESCAPED_UNICODE;
$signedText = json_encode($lineSeparators, $flags);
$hash = hash_hmac('sha1', $signedText, $secretKeys['ascii']);
$json[] = [
    'name' => 'U+2028 and U+2029 escaped by PHP with JSON_UNESCAPED_UNICODE',
    'secretKey' => 'ascii',
    'contentType' => 'application/json',
    'body' => json_encode($lineSeparators + ['verify_hash' => $hash], $flags),
    'verifyHash' => $hash,
    'fields' => $lineSeparators,
    'style' => ['slashes' => 'escaped', 'unicode' => 'raw-php'],
    'signedText' => $signedText,
    'numberFields' => [],
];
$vectors['json'] = $json;

// Reordered keys: same members, other order, hash of the original order. Must fail.
$hash = hash_hmac('sha1', json_encode($invoice), $secretKeys['ascii']);
$reordered = array_reverse($invoice, true);
$vectors['jsonReordered'] = [
    'secretKey' => 'ascii',
    'contentType' => 'application/json',
    'body' => json_encode($reordered + ['verify_hash' => $hash]),
];

file_put_contents(OUT, json_encode($vectors, JSON_OUT_FLAGS) . "\n");
fwrite(STDOUT, 'wrote ' . count($form) . ' form and ' . count($json) . " JSON vectors to " . realpath(OUT) . "\n");
