<?php
// Drives the real SCILL PHP SDK (scillgame/scill-php, not part of this repository) against this
// service, for test/e2e/sdk-php.test.ts. Usage:
//   php scill-php-client.php <sdk-dir> <base-url> <api-key> <app-id> <challenge-id> <battle-pass-id> <user-id>
// Prints one JSON object with what each SDK call answered, as the SDK deserialized it.
// Guzzle comes from Debian (php-guzzlehttp-guzzle 7, psr7 2): the SDK was generated for Guzzle 6,
// whose psr7 1.x still had the function build_query, so a one-line alias of Query::build stands in.

[$script, $sdk, $base, $apiKey, $appId, $challengeId, $passId, $userId] = $argv;

foreach (['GuzzleHttp/Promise', 'GuzzleHttp/Psr7', 'GuzzleHttp', 'Psr/Http/Message', 'Psr/Http/Client'] as $package) {
    require_once "/usr/share/php/$package/autoload.php";
}
if (!function_exists('GuzzleHttp\Psr7\build_query')) {
    eval('namespace GuzzleHttp\Psr7; function build_query($params, $encoding = PHP_QUERY_RFC3986) { return Query::build($params, $encoding); }');
}
spl_autoload_register(function ($class) use ($sdk) {
    if (strncmp($class, 'SCILL\\', 6) !== 0) return;
    $file = "$sdk/lib/" . str_replace('\\', '/', substr($class, 6)) . '.php';
    if (is_file($file)) require $file;
});

function configured($base, $credential) {
    $config = new \SCILL\Configuration();
    $config->setHost($base);
    $config->setAccessToken($credential);
    return $config;
}

function attempt(callable $call) {
    try {
        return ['ok' => json_decode(json_encode(\SCILL\ObjectSerializer::sanitizeForSerialization($call())), true)];
    } catch (\SCILL\ApiException $e) {
        return ['error' => $e->getCode(), 'body' => (string) $e->getResponseBody()];
    } catch (\Throwable $e) {
        return ['error' => get_class($e), 'message' => $e->getMessage()];
    }
}

$out = [];
$auth = new \SCILL\Api\AuthApi(null, configured($base, $apiKey));
$out['token'] = attempt(fn () => $auth->generateAccessToken(new \SCILL\Model\ForeignUserIdentifier(['user_id' => $userId])));
$token = $out['token']['ok']['token'] ?? '';

$challenges = new \SCILL\Api\ChallengesApi(null, configured($base, $token));
$out['unlock'] = attempt(fn () => $challenges->unlockPersonalChallenge($appId, $challengeId));
$out['activate'] = attempt(fn () => $challenges->activatePersonalChallenge($appId, $challengeId));

// SCILLClient::sendEvent: the events client has the API key and no `auth` (SCILLClient.php:65-75).
$events = new \SCILL\Api\EventsApi(null, configured($base, $apiKey));
$payload = new \SCILL\Model\EventPayload();
$payload->setEventName('kill-enemy');
$payload->setUserId($userId);
$payload->setSessionId('php-session');
$payload->setMetaData(new \SCILL\Model\EventMetaData(['amount' => 2]));
$out['event'] = attempt(fn () => $events->sendEvent($payload));

$out['challenge'] = attempt(fn () => $challenges->getPersonalChallengeById($appId, $challengeId));
$out['categories'] = attempt(fn () => $challenges->getPersonalChallenges($appId));

$passes = new \SCILL\Api\BattlePassesApi(null, configured($base, $token));
$out['unlock_pass'] = attempt(fn () => $passes->unlockBattlePass($appId, $passId));

echo json_encode($out, JSON_PRETTY_PRINT), "\n";
