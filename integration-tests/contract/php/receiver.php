<?php
// A merchant's callback receiver as the gateway family's PHP receivers write it (spec §6.3, form
// callback): PHP itself parses the body into $_POST, then the fields without verify_hash, sorted by
// name, `expire_utc` as a string, `html_entity_decode($post['tx_urls'])` (ONE string field), PHP
// serialize(), hash_hmac('sha1', …) with the shop's key. Run by php-receiver.spec.ts through
// `php -S`; the key comes from the environment. Answers 200 when the signature checks out, else 403,
// with a JSON body saying what it computed.

declare(strict_types=1);

$key = (string) getenv('SANDBOX_SECRET_KEY');
$post = $_POST;
$received = isset($post['verify_hash']) && is_string($post['verify_hash']) ? $post['verify_hash'] : '';
unset($post['verify_hash']);
if (isset($post['expire_utc'])) {
    $post['expire_utc'] = (string) $post['expire_utc'];
}
$error = null;
try {
    if (isset($post['tx_urls'])) {
        $post['tx_urls'] = html_entity_decode($post['tx_urls']);
    }
} catch (TypeError $e) {
    $error = $e->getMessage();
}
ksort($post);
$hash = $error === null ? hash_hmac('sha1', serialize($post), $key) : '';
$verified = $error === null && $received !== '' && hash_equals($hash, $received);

http_response_code($verified ? 200 : 403);
header('Content-Type: application/json');
$urls = $error === null && isset($post['tx_urls']) ? json_decode($post['tx_urls'], true) : null;
// Short: the sandbox keeps the first 500 characters of an answer in its delivery log.
echo json_encode([
    'verified' => $verified,
    'error' => $error === null ? null : substr($error, 0, 200),
    'status' => $post['status'] ?? null,
    'tx_url_count' => is_array($urls) ? count($urls) : null,
    'tx_urls_are_links' => is_array($urls) && count(array_filter($urls, fn($u) => !is_string($u) || !preg_match('#^https?://#', $u))) === 0,
]);
