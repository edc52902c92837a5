<?php
/**
 * The server half of consent: rewrites the vendor elements of an HTML page that the visitor's
 * consent does not allow yet into the blocked markup of docs/protocol.md#blocked-resources, so
 * that the browser requests nothing from a vendor before a choice. The bundle releases them.
 *
 * A small tokenizer that follows the HTML parser where it matters (comments, raw text and RCDATA
 * elements, the script data escape states, foreign content and CDATA, quoted attribute values):
 * only whole start tags it understands are rewritten; every other byte stays as it was.
 *
 * @license MIT
 */

namespace PagePulse\Joomla;

defined('_JEXEC') or die;

/** Rewrites one page; no Joomla dependency. */
final class Rewriter
{
    /**
     * A whole tag from `<` to `>`: name, then attributes (a name, optionally `=` and a quoted or
     * unquoted value) separated by whitespace or `/`. Possessive throughout: linear on any input.
     */
    const TAG = '~\G</?+([a-zA-Z][^\t\n\f\r />]*+)((?:[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:"[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+)*+)>~';

    /**
     * The next comment or start tag that matters (script, raw text and RCDATA elements, iframe,
     * link, base, svg, math, embed, object) in HTML content. Everything else is consumed whole and skipped inside
     * PCRE ((*SKIP)(*FAIL)) so that a `<` in a bogus comment or an attribute value is never read as
     * a tag: `<!...>` and `<?...>` up to the first `>`, end tags, other start tags, and a tag that
     * never closes (the rest of the page). Comments are found here and skipped with strpos: a lazy
     * `[\s\S]*?` to their end runs into pcre.backtrack_limit on a long one.
     */
    const NEXT = '~<!--|<[!?][^>]*+>?(*SKIP)(*FAIL)|</(?:[a-zA-Z][^\t\n\f\r />]*+(?:[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:"[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+)*+>|>|[^a-zA-Z>][^>]*+>?|[a-zA-Z][\s\S]*+)(*SKIP)(*FAIL)|<(?i:script|style|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext|link|base|svg|math|embed|object)(?=[\t\n\f\r />])|<[a-zA-Z][^\t\n\f\r />]*+(?:[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:"[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+)*+>(*SKIP)(*FAIL)|<[a-zA-Z][\s\S]*+(*SKIP)(*FAIL)~';

    /** One attribute of a tag's attribute text, with its offsets. */
    const ATTRIBUTE = '~([^\t\n\f\r />][^\t\n\f\r />=]*+)(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+("[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+~';

    /** Elements whose content is text up to their end tag (raw text, RCDATA; noscript: scripting is on). */
    private static $rawText = array('style' => 1, 'xmp' => 1, 'iframe' => 1, 'noembed' => 1, 'noframes' => 1, 'noscript' => 1, 'textarea' => 1, 'title' => 1);

    /** Script types the browser runs (the HTML standard's JavaScript MIME type essences, and module). */
    private static $scriptTypes = array(
        '' => 1, 'module' => 1, 'text/javascript' => 1, 'application/javascript' => 1, 'application/ecmascript' => 1,
        'application/x-ecmascript' => 1, 'application/x-javascript' => 1, 'text/ecmascript' => 1, 'text/javascript1.0' => 1,
        'text/javascript1.1' => 1, 'text/javascript1.2' => 1, 'text/javascript1.3' => 1, 'text/javascript1.4' => 1,
        'text/javascript1.5' => 1, 'text/jscript' => 1, 'text/livescript' => 1, 'text/x-ecmascript' => 1, 'text/x-javascript' => 1,
    );

    /** Link relations that make the browser connect to or fetch from a host before anything runs. */
    private static $linkHints = array('preload' => 1, 'prefetch' => 1, 'preconnect' => 1, 'dns-prefetch' => 1, 'modulepreload' => 1, 'prerender' => 1);

    /** HTML start tags that end foreign content (svg, math) where they appear in it. */
    private static $breakout = array(
        'b' => 1, 'big' => 1, 'blockquote' => 1, 'body' => 1, 'br' => 1, 'center' => 1, 'code' => 1, 'dd' => 1, 'div' => 1,
        'dl' => 1, 'dt' => 1, 'em' => 1, 'embed' => 1, 'h1' => 1, 'h2' => 1, 'h3' => 1, 'h4' => 1, 'h5' => 1, 'h6' => 1,
        'head' => 1, 'hr' => 1, 'i' => 1, 'img' => 1, 'li' => 1, 'listing' => 1, 'menu' => 1, 'meta' => 1, 'nobr' => 1,
        'ol' => 1, 'p' => 1, 'pre' => 1, 'ruby' => 1, 's' => 1, 'small' => 1, 'span' => 1, 'strong' => 1, 'strike' => 1,
        'sub' => 1, 'sup' => 1, 'table' => 1, 'tt' => 1, 'u' => 1, 'ul' => 1, 'var' => 1,
    );

    /**
     * Elements inside svg / math whose content is HTML again (HTML integration points, MathML text
     * integration points); annotation-xml is one only with an HTML `encoding` (see foreignStart).
     */
    private static $integration = array(
        'svg' => array('foreignobject' => 1, 'desc' => 1, 'title' => 1),
        'math' => array('mi' => 1, 'mo' => 1, 'mn' => 1, 'ms' => 1, 'mtext' => 1),
    );

    /** HTML end tags that close elements through an integration point (table scope, template). */
    private static $throughIntegration = array(
        'table' => 1, 'caption' => 1, 'colgroup' => 1, 'tbody' => 1, 'thead' => 1, 'tfoot' => 1, 'tr' => 1, 'td' => 1, 'th' => 1, 'template' => 1,
    );

    /** HTML elements without content: they open nothing inside an integration point. */
    private static $void = array(
        'area' => 1, 'base' => 1, 'basefont' => 1, 'bgsound' => 1, 'br' => 1, 'col' => 1, 'embed' => 1, 'frame' => 1, 'hr' => 1,
        'image' => 1, 'img' => 1, 'input' => 1, 'keygen' => 1, 'link' => 1, 'meta' => 1, 'param' => 1, 'source' => 1, 'track' => 1, 'wbr' => 1,
    );

    /**
     * Inline snippets that load a vendor without naming a host the table knows, by the service
     * they belong to: Google's gtag/GTM snippets, Meta's pixel, Matomo's `_paq` / `_mtm` (the
     * site's own Matomo host is not in any table).
     */
    private static $snippets = array(
        'google-analytics' => '~\bgtag\s*\(\s*[\'"](?:config|js|event)[\'"]|googletagmanager\.com/(?:gtm|gtag)|google-analytics\.com/(?:analytics|ga)\.js|\bGoogleAnalyticsObject\b~',
        'meta-pixel' => '~\bfbq\s*\(\s*[\'"]init[\'"]|connect\.facebook\.net/[^\'"\s]*/fbevents\.js~',
        'matomo' => '~\b_paq\.push\s*\(|\b_mtm\.push\s*\(~',
    );

    /**
     * How many different end tag names one page may have looked up (ignoredEndTag): each is one
     * pass over the page; past this, end tags in svg / math close it, as they may in the browser.
     */
    const END_TAG_LOOKUPS = 64;

    /**
     * How deep an end tag in svg / math looks for its element: a page of thousands of nested
     * elements and as many stray end tags took quadratic time. Deeper, an HTML end tag is taken as
     * ignored and another one as closing the foreign content: both read more as HTML, never less.
     */
    const END_TAG_DEPTH = 256;

    /** What a script must do to count as a loader when it only names a vendor's host. */
    const LOADER = '~createElement\s*\(|\.src\s*=|document\.write|\binsertBefore\s*\(|\bappendChild\s*\(|\bimport\s*\(~';

    /**
     * Held under this category: an address whose host the server cannot map as the browser does
     * (not ASCII without ext-intl, or an IDNA error), since it may be any vendor's.
     */
    const UNMAPPED_CATEGORY = 4;

    /**
     * Whether hosts that are not plain ASCII are mapped with ext-intl (UTS #46, as the browser's URL
     * parser does): null = when it is loaded; false = never (the tests check the fallback with it).
     *
     * @var bool|null
     */
    public static $intl = null;

    /** How deep documents in documents are read (srcdoc in srcdoc ...); deeper ones are held. */
    const INNER_DEPTH = 4;

    /** @var int how deep in documents carried by attributes this rewriter reads (inner()) */
    private $depth = 0;

    /** @var Policy */
    private $policy;

    /** @var Consent */
    private $consent;

    /** @var array<string, string> needle => pattern: a script whose address path matches the pattern is taken out */
    private $remove;

    /** @var string|null the host relative addresses resolve to after a `<base href>` of another host */
    private $baseHost = null;

    /** @var string the base's path */
    private $basePath = '/';

    /** @var bool whether a `<base href>` was seen (only the first counts) */
    private $baseSeen = false;

    /** @var bool whether a pattern gave up (PCRE limits) on this page: what follows is held (holdRest) */
    private $failed = false;

    /** @var int the preg_last_error() of the pattern that gave up */
    private $pcreError = PREG_NO_ERROR;

    /** @var array<string, int> element name => offset of the first `<name` in the page (PHP_INT_MAX: none), as looked up */
    private $firstStart = array();

    /**
     * What the last run did, in page order: action (script, inline, iframe, link, embed, object,
     * removed; failed and held after a pattern gave up, see holdRest), address (host and path, the
     * service of an inline snippet, or what a frame's document is: srcdoc, data:, javascript:),
     * service, category (null for removed, failed, held), and where: start and end offsets in the
     * input, and the markup put there.
     *
     * @var array<int, array{action: string, address: string, service: string|null, category: int|null, start: int, end: int, markup: string}>
     */
    public $report = array();

    /**
     * @param Policy $policy
     * @param Consent $consent
     * @param array<string, string> $remove scripts to take out (the original clients the bundle replaces): a
     *        needle the page must contain => a pattern their address's path matches
     */
    public function __construct(Policy $policy, Consent $consent, array $remove = array())
    {
        $this->policy = $policy;
        $this->consent = $consent;
        $this->remove = $remove;
    }

    /**
     * The page with what is not allowed yet rewritten; the same string when nothing was.
     *
     * @param string $html
     * @return string
     */
    public function rewrite($html)
    {
        $this->report = array();
        $this->baseHost = null;
        $this->basePath = '/';
        $this->baseSeen = false;
        $this->firstStart = array();
        $this->failed = false;
        $this->pcreError = PREG_NO_ERROR;
        if (!is_string($html) || $html === '') {
            return $html;
        }
        $block = !$this->consent->allowsEverything();
        if (!$block && !$this->mayRemove($html)) {
            return $html;
        }
        $pieces = array();
        $last = 0;
        $length = strlen($html);
        $pos = 0;
        /** @var string[] $foreign open svg / math elements (`svg:g`), `ip:name` for an integration point, `html:name` for HTML in one */
        $foreign = array();
        /** @var int where the outermost open svg / math starts */
        $foreignFrom = 0;
        $lt = $pos;
        while (!$this->failed) {
            if ($foreign) {
                // svg / math content: tag by tag (CDATA, no raw text, integration points)
                $lt = strpos($html, '<', $pos);
            } else {
                // the limit counts per tag: only a tag of tens of thousands of attributes fails here
                $lt = $this->match(self::NEXT, $html, $match, $pos, PREG_OFFSET_CAPTURE) ? $match[0][1] : ($this->failed ? $pos : false);
            }
            if ($lt === false || $this->failed) {
                break;
            }
            $next = $lt + 1 < $length ? $html[$lt + 1] : '';
            if ($next === '!') {
                $pos = $this->skipMarkupDeclaration($html, $lt, self::inForeign($foreign));
                if ($pos < 0) {
                    break;
                }
                continue;
            }
            if ($next === '?') {
                $end = strpos($html, '>', $lt);
                if ($end === false) {
                    break;
                }
                $pos = $end + 1;
                continue;
            }
            if ($next === '/') {
                $after = $lt + 2 < $length ? $html[$lt + 2] : '';
                if ($after === '>') {
                    $pos = $lt + 3;
                    continue;
                }
                if (!ctype_alpha($after)) {
                    $end = strpos($html, '>', $lt);
                    if ($end === false) {
                        break;
                    }
                    $pos = $end + 1;
                    continue;
                }
                if (!$this->match(self::TAG, $html, $tag, $lt)) {
                    break; // the rest of the page is inside an unfinished tag: the parser drops it
                }
                $this->endTag($foreign, strtolower($tag[1]), $html, $foreignFrom);
                $pos = $lt + strlen($tag[0]);
                continue;
            }
            if ($next === '' || !ctype_alpha($next)) {
                $pos = $lt + 1;
                continue;
            }
            if (!$this->match(self::TAG, $html, $tag, $lt)) {
                break;
            }
            $name = strtolower($tag[1]);
            $tagEnd = $lt + strlen($tag[0]);
            $pos = $tagEnd;
            $selfClosing = substr($tag[0], -2) === '/>';
            if (self::inForeign($foreign)) {
                if (!isset(self::$breakout[$name]) && !($name === 'font' && $this->match('~(?:^|[\t\n\f\r /])(?:color|face|size)[\t\n\f\r ]*+(?:=|[\t\n\f\r /]|$)~i', $tag[2], $match))) {
                    if (!$selfClosing) {
                        $foreign[] = $this->foreignStart(end($foreign), $name, $tag[2]);
                    }
                    continue;
                }
                // an HTML element in svg or math closes them all (up to an integration point)
                while (self::inForeign($foreign)) {
                    array_pop($foreign);
                }
            } elseif ($foreign && ($name === 'mglyph' || $name === 'malignmark') && isset(self::$integration['math'][substr(end($foreign), 3)])) {
                // the two MathML elements that stay MathML in MathML text
                if (!$selfClosing) {
                    $foreign[] = 'math:' . $name;
                }
                continue;
            }
            if ($name === 'script') {
                $close = $this->scriptEnd($html, $tagEnd);
                if ($close === null) {
                    break; // a script open at the end of the page never runs
                }
                $replacement = $this->script($tag, substr($html, $tagEnd, $close[0] - $tagEnd));
                if ($this->failed) {
                    break;
                }
                if ($replacement !== null) {
                    // '' takes the whole element out, text and end tag too
                    $last = $this->edit($html, $pieces, $last, $lt, $replacement === '' ? $close[1] : $tagEnd, $replacement);
                }
                $pos = $close[1];
                continue;
            }
            if (($name === 'iframe' || $name === 'link' || $name === 'embed' || $name === 'object') && $block) {
                $replacement = $name === 'iframe' ? $this->frame($tag) : ($name === 'link' ? $this->link($tag) : $this->plugin($name, $tag));
                if ($this->failed) {
                    break;
                }
                if ($replacement !== null) {
                    $last = $this->edit($html, $pieces, $last, $lt, $tagEnd, $replacement);
                }
            } elseif ($name === 'base' && !$this->baseSeen) {
                $this->base($tag[2]);
            } elseif (($name === 'svg' || $name === 'math') && !$selfClosing) {
                if (!$foreign) {
                    $foreignFrom = $lt;
                }
                $foreign[] = $name . ':' . $name;
                continue;
            } elseif ($name === 'plaintext') {
                break;
            } elseif ($foreign && !isset(self::$void[$name]) && !isset(self::$rawText[$name]) && $name !== 'svg' && $name !== 'math') {
                // HTML inside an integration point: its end tags, not the integration point's, come first
                $foreign[] = 'html:' . $name;
            }
            if (isset(self::$rawText[$name])) {
                $end = $this->rawTextEnd($html, $tagEnd, $name);
                if ($end === null) {
                    break;
                }
                $pos = $end;
            }
        }
        if ($this->failed) {
            $last = $this->holdRest($html, $pieces, $last, max($lt, $last));
        }
        if (!$pieces) {
            return $html;
        }
        $pieces[] = substr($html, $last);
        return implode('', $pieces);
    }

    /**
     * Replace [$start, $end) of the page with $markup: the unchanged text since $last and the
     * markup go to $pieces, the last report entry learns where; returns the new $last.
     */
    private function edit($html, array &$pieces, $last, $start, $end, $markup)
    {
        $pieces[] = substr($html, $last, $start - $last);
        $pieces[] = $markup;
        $entry = count($this->report) - 1;
        $this->report[$entry]['start'] = $start;
        $this->report[$entry]['end'] = $end;
        $this->report[$entry]['markup'] = $markup;
        return $end;
    }

    /**
     * preg_match at $offset; a pattern that gives up (a host's PCRE limits) marks the run failed.
     *
     * @param string $pattern
     * @param string $subject
     * @param array|null $match
     * @param int $offset
     * @param int $flags
     * @return bool
     */
    private function match($pattern, $subject, &$match, $offset = 0, $flags = 0)
    {
        $found = preg_match($pattern, $subject, $match, $flags, $offset);
        if ($found === false) {
            $this->fail();
        }
        return $found === 1;
    }

    /** A pattern gave up: the run holds the rest of the page (holdRest). */
    private function fail()
    {
        if (!$this->failed) {
            $this->failed = true;
            $this->pcreError = preg_last_error();
        }
    }

    /**
     * After a pattern gave up at $from, the page cannot be read from there on, and letting the rest
     * through would send every vendor element in it out. Instead every script, iframe, embed, object
     * and resource hint start tag from $from on, wherever it is, gets one attribute put first, which
     * the browser keeps over the tag's own: `type=text/plain`, `src=about:blank`, `data=about:blank`,
     * `rel=pagepulse-held` (unquoted: a copy inside a script's string stays valid JavaScript). They stay held, the
     * site's own too; the bundle does not know them. Rare (a tag of tens of thousands of
     * attributes, or a very low pcre.backtrack_limit); the plugin logs it.
     *
     * @return int the new $last
     */
    private function holdRest($html, array &$pieces, $last, $from)
    {
        static $hold = array('script' => ' type=text/plain', 'iframe' => ' src=about:blank', 'link' => ' rel=pagepulse-held', 'embed' => ' src=about:blank', 'object' => ' data=about:blank');
        $this->report[] = array('action' => 'failed', 'address' => 'pcre error ' . $this->pcreError, 'service' => null, 'category' => null, 'start' => $from, 'end' => $from, 'markup' => '');
        $pos = $from;
        while (($lt = strpos($html, '<', $pos)) !== false) {
            $pos = $lt + 1;
            $length = strspn($html, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', $pos);
            $name = strtolower(substr($html, $pos, $length));
            $after = $pos + $length;
            if (!isset($hold[$name]) || !isset($html[$after]) || strpos("\t\n\f\r />", $html[$after]) === false) {
                continue;
            }
            if ($name === 'link') {
                $end = strpos($html, '>', $after);
                $text = strtolower($end === false ? substr($html, $after) : substr($html, $after, $end - $after));
                $hint = false;
                foreach (array_keys(self::$linkHints) as $word) {
                    $hint = $hint || strpos($text, $word) !== false;
                }
                if (!$hint) {
                    continue;
                }
            }
            $pieces[] = substr($html, $last, $after - $last);
            $pieces[] = $hold[$name];
            $last = $after;
            $this->report[] = array('action' => 'held', 'address' => $name, 'service' => null, 'category' => null, 'start' => $after, 'end' => $after, 'markup' => $hold[$name]);
        }
        return $last;
    }

    /** Whether the page may hold a script to take out (a cheap look before the tokenizer runs). */
    private function mayRemove($html)
    {
        foreach (array_keys($this->remove) as $needle) {
            if (stripos($html, $needle) !== false) {
                return true;
            }
        }
        return false;
    }

    /**
     * After `<!`: a comment, a CDATA section (foreign content only) or a bogus comment up to `>`.
     * Returns where scanning goes on, or -1 when the rest of the page is inside it.
     */
    private function skipMarkupDeclaration($html, $lt, $inForeign)
    {
        if (substr_compare($html, '<!--', $lt, 4) === 0) {
            $start = $lt + 4;
            // `<!-->` and `<!--->` are whole (empty) comments
            if (substr_compare($html, '>', $start, 1) === 0) {
                return $start + 1;
            }
            if (substr_compare($html, '->', $start, 2) === 0) {
                return $start + 2;
            }
            $end = strpos($html, '--', $start);
            while ($end !== false) {
                $after = $end + 2;
                while (isset($html[$after]) && $html[$after] === '-') {
                    $after++;
                }
                if (isset($html[$after]) && $html[$after] === '>') {
                    return $after + 1;
                }
                if (isset($html[$after + 1]) && $html[$after] === '!' && $html[$after + 1] === '>') {
                    return $after + 2;
                }
                $end = strpos($html, '--', $after);
            }
            return -1;
        }
        if ($inForeign && substr_compare($html, '<![CDATA[', $lt, 9) === 0) {
            $end = strpos($html, ']]>', $lt + 9);
            return $end === false ? -1 : $end + 3;
        }
        $end = strpos($html, '>', $lt + 2);
        return $end === false ? -1 : $end + 1;
    }

    /** Whether the innermost open element is svg or math content (not an integration point or HTML in one). */
    private static function inForeign(array $foreign)
    {
        // by index: end() takes its array by reference, which copied the whole stack on each call
        $top = $foreign ? $foreign[count($foreign) - 1] : 'html:';
        return strncmp($top, 'ip:', 3) !== 0 && strncmp($top, 'html:', 5) !== 0;
    }

    /**
     * The stack entry for a start tag in svg / math content: an element of the same namespace (svg
     * in MathML and math in SVG too), `ip:name` for an integration point; svg in annotation-xml is svg.
     */
    private function foreignStart($parent, $name, $attributeText)
    {
        $namespace = strstr($parent, ':', true);
        if ($parent === 'math:annotation-xml' && $name === 'svg') {
            return 'svg:svg';
        }
        if (isset(self::$integration[$namespace][$name])) {
            return 'ip:' . $name;
        }
        if ($namespace === 'math' && $name === 'annotation-xml') {
            $encoding = strtolower((string) $this->value($this->attributes($attributeText), 'encoding'));
            if ($encoding === 'text/html' || $encoding === 'application/xhtml+xml') {
                return 'ip:' . $name;
            }
        }
        return $namespace . ':' . $name;
    }

    /**
     * An end tag while svg / math is open. `svg:` / `math:` / `ip:` entries are svg and math
     * elements, `html:` entries HTML elements opened inside an integration point.
     *
     * With an HTML element current, the end tag is HTML's: it closes that HTML element, never the
     * integration point around it. Otherwise it closes the innermost open svg / math element of its
     * name with everything inside. An end tag of any other name is an HTML element's: in the
     * browser it closes the foreign content when that element is open around it (`</td>`, `</a>`,
     * `</div>` ...), unless an integration point stands between (only table parts and `</template>`
     * pass one). The rewriter does not follow which HTML elements are open, so such an end tag
     * ends the foreign content unless the browser surely ignores it (ignoredEndTag): wrong only
     * towards rewriting more, which the bundle undoes. Looks END_TAG_DEPTH elements deep at most.
     *
     * @param string[] $foreign
     * @param string $name
     * @param string $html the page
     * @param int $from where the outermost open svg / math starts
     */
    private function endTag(array &$foreign, $name, $html, $from)
    {
        if (!$foreign) {
            return;
        }
        $i = count($foreign) - 1;
        $stop = max(-1, $i - self::END_TAG_DEPTH);
        if (strncmp($foreign[$i], 'html:', 5) === 0) {
            for (; $i > $stop && strncmp($foreign[$i], 'html:', 5) === 0; $i--) {
                if ($foreign[$i] === 'html:' . $name) {
                    array_splice($foreign, $i);
                    return;
                }
            }
            return;
        }
        $integration = false;
        for (; $i > $stop && strncmp($foreign[$i], 'html:', 5) !== 0; $i--) {
            if (substr(strstr($foreign[$i], ':'), 1) === $name) {
                array_splice($foreign, $i);
                return;
            }
            $integration = $integration || strncmp($foreign[$i], 'ip:', 3) === 0;
        }
        if ($i < 0) {
            // the end tag goes to the HTML around the svg / math
            if ($this->ignoredEndTag($name, $html, $from)) {
                return;
            }
            if ($integration && $name !== 'p' && $name !== 'br') {
                // an integration point is special and a scope boundary: only table scope and
                // </template> close through it, and then everything (the cell is outside)
                if (isset(self::$throughIntegration[$name])) {
                    $foreign = array();
                }
                return;
            }
        }
        while (self::inForeign($foreign)) {
            array_pop($foreign);
        }
    }

    /**
     * Whether the browser surely ignores this end tag in svg / math that began in HTML content at
     * $from: `</html>`, `</head>` and `</body>` close nothing, and neither does the end tag of an
     * element whose start tag the page does not have before the svg / math (table parts: no
     * `<table` before it, as the parser adds tbody and tr itself). `</p>` and `</br>` always close.
     * Looks each name up once; after that many names, answers no (the end tag closes).
     */
    private function ignoredEndTag($name, $html, $from)
    {
        static $table = array('table' => 1, 'caption' => 1, 'colgroup' => 1, 'tbody' => 1, 'thead' => 1, 'tfoot' => 1, 'tr' => 1, 'td' => 1, 'th' => 1);
        if ($name === 'html' || $name === 'head' || $name === 'body') {
            return true;
        }
        if ($name === 'p' || $name === 'br') {
            return false;
        }
        $look = isset($table[$name]) ? 'table' : $name;
        if (!isset($this->firstStart[$look])) {
            if (count($this->firstStart) >= self::END_TAG_LOOKUPS) {
                return false;
            }
            $found = preg_match('~<' . preg_quote($look, '~') . '[\t\n\f\r />]~i', $html, $match, PREG_OFFSET_CAPTURE);
            if ($found === false) {
                return false; // PCRE gave up: count it as open
            }
            $this->firstStart[$look] = $found ? $match[0][1] : PHP_INT_MAX;
        }
        return $this->firstStart[$look] >= $from;
    }

    /**
     * Where a script's text ends: [start of `</script`, end of its end tag], or null when the page
     * ends first. Follows the script data states: `<!--` escapes, `<script` inside an escape
     * doubles it, where `</script` does not end the element.
     *
     * @return array{0: int, 1: int}|null
     */
    private function scriptEnd($html, $from)
    {
        // per state, what can happen next: 0 script data, 1 escaped, 2 double escaped
        static $next = array(
            0 => '~</script(?=[\t\n\f\r />])|<!--~i',
            1 => '~</script(?=[\t\n\f\r />])|<script(?=[\t\n\f\r />])|-->~i',
            2 => '~</script(?=[\t\n\f\r />])|-->~i',
        );
        $state = 0;
        $pos = $from;
        while ($this->match($next[$state], $html, $match, $pos, PREG_OFFSET_CAPTURE)) {
            $at = $match[0][1];
            $token = strtolower($match[0][0]);
            if ($token === '</script') {
                if ($state !== 2) {
                    return $this->finishEndTag($html, $at);
                }
                $state = 1;
                $pos = $at + 8;
            } elseif ($token === '<!--') {
                // its `--` already counts towards `-->`: `<!-->` and `<!--->` close at once
                $pos = $at + 4;
                $pos += strspn($html, '-', $pos);
                if (isset($html[$pos]) && $html[$pos] === '>') {
                    $pos++;
                } else {
                    $state = 1;
                }
            } elseif ($token === '-->') {
                $state = 0;
                $pos = $at + 3;
            } else {
                $state = 2;
                $pos = $at + 7;
            }
        }
        return null;
    }

    /** [start, end] of the end tag at $at (quote-aware), or null when it never closes. */
    private function finishEndTag($html, $at)
    {
        if (!$this->match(self::TAG, $html, $tag, $at)) {
            return null;
        }
        return array($at, $at + strlen($tag[0]));
    }

    /** Where a raw text or RCDATA element's end tag ends, or null. */
    private function rawTextEnd($html, $from, $name)
    {
        if (!$this->match('~</' . $name . '(?=[\t\n\f\r />])~i', $html, $match, $from, PREG_OFFSET_CAPTURE)) {
            return null;
        }
        $end = $this->finishEndTag($html, $match[0][1]);
        return $end === null ? null : $end[1];
    }

    /**
     * A script: null to keep it, '' to take it out (with its text and end tag), else its new start tag.
     *
     * @param array $tag the TAG match
     * @param string $text the script's text
     * @return string|null
     */
    private function script(array $tag, $text)
    {
        $attributes = $this->attributes($tag[2]);
        $type = $this->value($attributes, 'type');
        if ($type === null) {
            $language = $this->value($attributes, 'language');
            $type = $language === null ? '' : 'text/' . trim($language);
            $type = $type === 'text/' ? '' : $type;
        }
        // the MIME type's essence: parameters (`; charset=utf-8`) do not make a script inert
        $type = strtolower(trim(strstr($type . ';', ';', true), " \t\n\f\r"));
        if (!isset(self::$scriptTypes[$type])) {
            return null;
        }
        $src = $this->value($attributes, 'src');
        if ($src !== null) {
            $address = $this->address($src);
            foreach ($this->remove as $pattern) {
                if ($address !== null && $this->match($pattern, $address[1], $match)) {
                    $this->report[] = self::entry('removed', $address[0] . $address[1], null);
                    return '';
                }
            }
            $found = $this->classify($address);
            if ($found === null || $this->consent->allows($found[0], $found[1])) {
                return null;
            }
            $this->report[] = self::entry('script', $address[0] . $address[1], $found);
            return $this->blockedTag('script', $tag, $attributes, $found, true);
        }
        $found = $this->snippet($text);
        if ($found === null || $this->consent->allows($found[0], $found[1])) {
            return null;
        }
        $this->report[] = self::entry('inline', $found[1] !== null ? $found[1] : 'category ' . $found[0], $found);
        return $this->blockedTag('script', $tag, $attributes, $found, true);
    }

    /**
     * What an inline script loads: a known snippet's service, else the first address of a known
     * host in a script that inserts something. Null for anything else.
     *
     * @return array{0: int, 1: string|null}|null
     */
    private function snippet($text)
    {
        if (trim($text) === '') {
            return null;
        }
        foreach (self::$snippets as $service => $pattern) {
            if ($this->policy->hasService($service) && $this->match($pattern, $text, $match)) {
                return array($this->policy->services[$service]['category'], $service);
            }
        }
        if (!$this->match(self::LOADER, $text, $match)) {
            return null;
        }
        return $this->named($text, false);
    }

    /**
     * The first address of a known host that a text names (`https://host/path`, `//host/path`, also
     * with `\/` as in JSON): [category, service]; with $held, the first the visitor has not allowed.
     *
     * @return array{0: int, 1: string|null}|null
     */
    private function named($text, $held)
    {
        $found = preg_match_all('~(?:https?:)?(?:\\\\?/){2}([a-z0-9.-]+\.[a-z]{2,})((?:\\\\?/[^\s\'"\\\\?#]*)*)~i', $text, $matches, PREG_SET_ORDER);
        if ($found === false) {
            $this->fail();
        }
        if ($found) {
            foreach ($matches as $match) {
                $found = $this->policy->classify(strtolower($match[1]), str_replace('\\/', '/', $match[2]) ?: '/');
                if ($found !== null && (!$held || !$this->consent->allows($found[0], $found[1]))) {
                    return $found;
                }
            }
        }
        return null;
    }

    /**
     * An iframe: null to keep it, else its new start tag. One whose own document loads a vendor
     * (`srcdoc`, which wins over `src`, or a `data:` or `javascript:` address) is held as
     * server-blocked markup, as embeds are (plugin()): the bundle releases only addresses.
     */
    private function frame(array $tag)
    {
        $attributes = $this->attributes($tag[2]);
        $src = $this->value($attributes, 'src');
        $srcdoc = $this->value($attributes, 'srcdoc');
        $found = $srcdoc === null ? null : $this->inner($srcdoc);
        if ($found !== null) {
            $this->report[] = self::entry('iframe', 'srcdoc', $found);
            return $this->serverBlocked($tag, $attributes, array('srcdoc' => 'data-srcdoc', 'src' => 'data-src'), $found);
        }
        $address = $src === null ? null : $this->address($src);
        if ($address === null && $src !== null) {
            list($scheme, $found) = $this->frameDocument($src);
            if ($found === null) {
                return null;
            }
            $this->report[] = self::entry('iframe', $scheme, $found);
            return $this->serverBlocked($tag, $attributes, array('src' => 'data-src'), $found);
        }
        $found = $this->classify($address);
        if ($found === null || $this->consent->allows($found[0], $found[1])) {
            return null;
        }
        $this->report[] = self::entry('iframe', $address[0] . $address[1], $found);
        return $this->blockedTag('iframe', $tag, $attributes, $found, false);
    }

    /**
     * A document the page carries in an attribute (srcdoc, a data: address, a javascript: one's
     * text): [category, service] of the first thing in it that would load and is not allowed, read
     * by a rewriter of its own as the browser reads that document; null when there is none.
     *
     * @return array{0: int, 1: string|null}|null
     */
    private function inner($html)
    {
        if ($this->depth >= self::INNER_DEPTH) {
            return array(self::UNMAPPED_CATEGORY, null);
        }
        $inner = new self($this->policy, $this->consent);
        $inner->depth = $this->depth + 1;
        $inner->rewrite($html);
        foreach ($inner->report as $entry) {
            if ($entry['action'] !== 'removed') {
                // after a PCRE failure (failed, held): no category known, held under the unmapped one
                return $entry['category'] !== null ? array($entry['category'], $entry['service']) : array(self::UNMAPPED_CATEGORY, null);
            }
        }
        return null;
    }

    /**
     * What a `data:` or `javascript:` frame address loads that is not allowed: [scheme, found or
     * null]. A data: HTML document is read as a page; any other data: document that may run
     * script (SVG, XML) and a javascript: address's text (percent-decoded, as the browser runs it)
     * are held when they name a vendor's address or hold a vendor's snippet, whatever they do with
     * it. Plain text, images and other schemes load nothing.
     *
     * @return array{0: string, 1: array{0: int, 1: string|null}|null}
     */
    private function frameDocument($src)
    {
        $url = trim(str_replace(array("\t", "\n", "\r"), '', $src), " \f\x00..\x1F");
        if (!preg_match('~^(data|javascript):~i', $url, $scheme)) {
            return array('', null);
        }
        $name = strtolower($scheme[1]) . ':';
        $rest = (string) substr($url, strlen($scheme[0]));
        if ($name === 'javascript:') {
            $text = rawurldecode($rest);
            $found = $this->snippet($text);
            if ($found !== null && $this->consent->allows($found[0], $found[1])) {
                $found = null;
            }
            return array($name, $found !== null ? $found : ($this->inner($text) ?: $this->named($text, true)));
        }
        $comma = strpos($rest, ',');
        if ($comma === false) {
            return array($name, null);
        }
        $meta = strtolower(substr($rest, 0, $comma));
        $body = rawurldecode((string) substr($rest, $comma + 1));
        if (preg_match('~;[\t\n\f\r ]*base64[\t\n\f\r ]*$~', $meta)) {
            $body = (string) base64_decode((string) preg_replace('~[\t\n\f\r ]+~', '', $body));
        }
        $type = trim((string) strstr($meta . ';', ';', true), " \t\n\f\r");
        if ($type === 'text/html') {
            return array($name, $this->inner($body));
        }
        if ($type === '' || strncmp($type, 'text/', 5) === 0 || (strncmp($type, 'image/', 6) === 0 && $type !== 'image/svg+xml')) {
            return array($name, null);
        }
        return array($name, $this->named($body, true));
    }

    /**
     * An element whose document or plugin the bundle cannot start in place, as server-blocked
     * markup (docs/protocol.md#blocked-resources, com_gdpr's `data-source="gdprlock"`): the
     * attributes that load something renamed ($renames: every copy, since the browser keeps the
     * first and a later one must not become it), `data-category`, `data-service`. The bundle shows
     * a placeholder and reloads the page once a choice allows the category; the server then leaves
     * the element as it was.
     */
    private function serverBlocked(array $tag, array $attributes, array $renames, array $found)
    {
        $out = '<' . $tag[1];
        foreach ($attributes as $attribute) {
            $lower = $attribute[0];
            if ($lower === 'data-source' || $lower === 'data-category' || $lower === 'data-service' || in_array($lower, $renames, true)) {
                continue;
            }
            $out .= ' ' . (isset($renames[$lower]) ? $renames[$lower] . substr($attribute[2], strlen($attribute[1])) : $attribute[2]);
        }
        $out .= ' data-source="gdprlock" data-category="' . $found[0] . '"';
        if ($found[1] !== null) {
            $out .= ' data-service="' . $found[1] . '"';
        }
        return $out . '>';
    }

    /**
     * An `<embed src>` or `<object data>` of a vendor: null to keep it, else its new start tag. The
     * bundle cannot start such an element in place, so it is held as server-blocked markup
     * (serverBlocked), its address as `data-src`.
     */
    private function plugin($name, array $tag)
    {
        $attributes = $this->attributes($tag[2]);
        $key = $name === 'object' ? 'data' : 'src';
        $value = $this->value($attributes, $key);
        $address = $value === null ? null : $this->address($value);
        $found = $this->classify($address);
        if ($found === null || $this->consent->allows($found[0], $found[1])) {
            return null;
        }
        $this->report[] = self::entry($name, $address[0] . $address[1], $found);
        return $this->serverBlocked($tag, $attributes, array($key => 'data-src'), $found);
    }

    /**
     * A resource hint to a vendor (preload, preconnect, ...): its href is parked in
     * data-pagepulse-href; the resource loads once the bundle runs what needs it.
     */
    private function link(array $tag)
    {
        $attributes = $this->attributes($tag[2]);
        $rel = $this->value($attributes, 'rel');
        $hint = false;
        foreach (preg_split('~[\t\n\f\r ]+~', strtolower((string) $rel)) as $word) {
            $hint = $hint || isset(self::$linkHints[$word]);
        }
        $href = $this->value($attributes, 'href');
        $address = $hint && $href !== null ? $this->address($href) : null;
        $found = $this->classify($address);
        if ($found === null || $this->consent->allows($found[0], $found[1])) {
            return null;
        }
        $this->report[] = self::entry('link', $address[0] . $address[1], $found);
        $out = '<link';
        foreach ($attributes as $attribute) {
            $out .= ' ' . ($attribute[0] === 'href' ? 'data-pagepulse-href' . substr($attribute[2], strlen($attribute[1])) : $attribute[2]);
        }
        return $out . ' data-category="' . $found[0] . '">';
    }

    /** The first `<base href>`: relative addresses resolve against it. */
    private function base($attributeText)
    {
        $href = $this->value($this->attributes($attributeText), 'href');
        if ($href === null) {
            return;
        }
        $this->baseSeen = true;
        $address = $this->address($href);
        if ($address !== null && $address[0] !== '') {
            $this->baseHost = $address[0];
            $this->basePath = $address[1];
        }
    }

    /**
     * The blocked markup: `type="text/plain"` for a script with its own type kept in `data-type`
     * (the bundle gives it back on release: a module stays a module), `data-src` for the address,
     * `data-category` and `data-service`; every other attribute exactly as it was.
     */
    private function blockedTag($name, array $tag, array $attributes, array $found, $script)
    {
        $out = '<' . $tag[1];
        $typed = false;
        foreach ($attributes as $attribute) {
            $lower = $attribute[0];
            if ($lower === 'data-src' || $lower === 'data-category' || $lower === 'data-service' || ($script && $lower === 'data-type')) {
                continue;
            }
            if ($script && $lower === 'type') {
                // the first type is the one the browser reads; later ones it ignores
                if (!$typed) {
                    $out .= ' data-type' . substr($attribute[2], strlen($attribute[1]));
                    $typed = true;
                }
                continue;
            }
            $out .= ' ' . ($lower === 'src' ? 'data-src' . substr($attribute[2], strlen($attribute[1])) : $attribute[2]);
        }
        if ($script) {
            $out .= ' type="text/plain"';
        }
        $out .= ' data-category="' . $found[0] . '"';
        if ($found[1] !== null) {
            $out .= ' data-service="' . $found[1] . '"';
        }
        return $out . '>';
    }

    /**
     * A tag's attributes in order: [lower-case name, raw name, raw text from name to value end, decoded value or null].
     *
     * @return array<int, array{0: string, 1: string, 2: string, 3: string|null}>
     */
    private function attributes($text)
    {
        $out = array();
        if ($text === '') {
            return $out;
        }
        $found = preg_match_all(self::ATTRIBUTE, $text, $matches, PREG_SET_ORDER);
        if (!$found) {
            if ($found === false) {
                $this->fail();
            }
            return $out;
        }
        foreach ($matches as $match) {
            $value = null;
            if (isset($match[2])) {
                $raw = $match[2];
                if ($raw !== '' && ($raw[0] === '"' || $raw[0] === "'")) {
                    $raw = substr($raw, 1, -1);
                }
                $value = strpos($raw, '&') === false ? $raw : $this->decode($raw);
            }
            $out[] = array(strtolower($match[1]), $match[1], $match[0], $value === null ? '' : $value);
        }
        return $out;
    }

    /** A report entry ($found: [category, service] or null); rewrite() adds where. */
    private static function entry($action, $address, $found)
    {
        return array(
            'action' => $action, 'address' => $address, 'service' => $found === null ? null : $found[1],
            'category' => $found === null ? null : $found[0], 'start' => 0, 'end' => 0, 'markup' => '',
        );
    }

    /** An attribute value's character references, numeric ones without `;` too (as browsers read them). */
    private function decode($raw)
    {
        $fixed = preg_replace('~&#([xX][0-9a-fA-F]++|[0-9]++)(?!;)~', '&#$1;', $raw);
        if ($fixed === null) {
            $this->fail();
            $fixed = $raw;
        }
        return html_entity_decode($fixed, ENT_QUOTES | ENT_HTML5, 'UTF-8');
    }

    /** The value of the first attribute of a name (as the parser keeps the first), or null. */
    private function value(array $attributes, $name)
    {
        foreach ($attributes as $attribute) {
            if ($attribute[0] === $name) {
                return $attribute[3];
            }
        }
        return null;
    }

    /**
     * Host and path of an address as the browser's URL parser reads them: tabs and newlines
     * removed, `\` as `/`, user info and port dropped, the host percent-decoded and mapped as
     * domain to ASCII does (hostFor), the path as the vendor's server reads it (pathFor); a relative address has
     * the host of a `<base href>`, else '' (the page's own). A host that cannot be mapped here is
     * `?` and the host as written (held, see classify). Null for addresses of other schemes
     * (data:, javascript:, about:).
     *
     * @return array{0: string, 1: string}|null
     */
    private function address($value)
    {
        $url = trim(str_replace(array("\t", "\n", "\r"), '', $value), " \f\x00..\x1F");
        $url = str_replace('\\', '/', $url);
        if (preg_match('~^([a-zA-Z][a-zA-Z0-9+.-]*):~', $url, $scheme)) {
            $name = strtolower($scheme[1]);
            if ($name !== 'http' && $name !== 'https') {
                return null;
            }
            $rest = ltrim(substr($url, strlen($scheme[0])), '/');
        } elseif (substr($url, 0, 2) === '//') {
            $rest = ltrim($url, '/');
        } else {
            // relative: the page's own host ('') unless a `<base href>` named another
            $path = substr($url, 0, strcspn($url, '?#'));
            if ($this->baseHost === null) {
                return array('', $path);
            }
            return array($this->baseHost, self::pathFor($path !== '' && $path[0] === '/' ? $path : substr($this->basePath, 0, strrpos($this->basePath, '/') + 1) . $path));
        }
        $cut = strcspn($rest, '/?#');
        $authority = substr($rest, 0, $cut);
        $path = $cut < strlen($rest) && $rest[$cut] === '/' ? substr($rest, $cut, strcspn($rest, '?#', $cut)) : '/';
        $at = strrpos($authority, '@');
        if ($at !== false) {
            $authority = substr($authority, $at + 1);
        }
        if ($authority !== '' && $authority[0] === '[') {
            return null; // an IPv6 literal: no vendor's name
        }
        $colon = strpos($authority, ':');
        if ($colon !== false) {
            $authority = substr($authority, 0, $colon);
        }
        $written = rawurldecode($authority);
        $host = self::hostFor($written);
        if ($host === null) {
            return array('?' . $written, self::pathFor($path));
        }
        return $host === '' ? null : array($host, self::pathFor($path));
    }

    /**
     * What the address belongs to: [category, service or null], or null for the page's own and
     * other hosts. A host that could not be mapped is held under UNMAPPED_CATEGORY.
     *
     * @param array{0: string, 1: string}|null $address
     * @return array{0: int, 1: string|null}|null
     */
    private function classify($address)
    {
        if ($address === null || $address[0] === '') {
            return null;
        }
        if ($address[0][0] === '?') {
            return array(self::UNMAPPED_CATEGORY, null);
        }
        return $this->policy->classify($address[0], $address[1]);
    }

    /**
     * A percent-decoded host as the URL parser's domain to ASCII leaves it (UTS #46, non-transitional,
     * no hyphen or length checks): lower case, without a trailing dot; `www.youtube。com`, fullwidth
     * letters and a soft hyphen all become `www.youtube.com`. Null when that cannot be done here:
     * a host that is not plain ASCII without ext-intl, or one ext-intl finds invalid (a browser would
     * not load it; held all the same).
     *
     * @param string $host
     * @return string|null
     */
    private static function hostFor($host)
    {
        if (!preg_match('/[\x80-\xFF]/', $host)) {
            // ASCII: only upper case letters map (strtr: strtolower follows the locale on PHP 7)
            return rtrim(strtr($host, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), '.');
        }
        $intl = self::$intl === null ? function_exists('idn_to_ascii') && defined('INTL_IDNA_VARIANT_UTS46') : self::$intl;
        if (!$intl) {
            return null;
        }
        $info = array();
        idn_to_ascii($host, IDNA_NONTRANSITIONAL_TO_ASCII, INTL_IDNA_VARIANT_UTS46, $info);
        // the checks browsers leave out (CheckHyphens, VerifyDnsLength) are no reason to refuse
        $ignored = IDNA_ERROR_EMPTY_LABEL | IDNA_ERROR_LABEL_TOO_LONG | IDNA_ERROR_DOMAIN_NAME_TOO_LONG
            | IDNA_ERROR_LEADING_HYPHEN | IDNA_ERROR_TRAILING_HYPHEN | IDNA_ERROR_HYPHEN_3_4;
        if (!isset($info['result'], $info['errors']) || ($info['errors'] & ~$ignored) !== 0 || preg_match('/[^\x21-\x7E]/', $info['result'])) {
            return null;
        }
        return rtrim($info['result'], '.');
    }

    /**
     * The path a vendor's server reads: dot segments removed (as the browser does), then percent-
     * encoded letters, digits and `-._~` decoded (RFC 3986: the same path to the server, so
     * `/%6Daps/embed` is Maps too; the bundle holds such an element by the category written on it).
     *
     * @param string $path
     * @return string
     */
    private static function pathFor($path)
    {
        $path = self::withoutDotSegments($path);
        if (strpos($path, '%') === false) {
            return $path;
        }
        $decoded = preg_replace_callback('/%([0-9A-Fa-f]{2})/', function ($match) {
            $char = chr((int) hexdec($match[1]));
            return preg_match('/^[A-Za-z0-9._~-]$/D', $char) ? $char : $match[0];
        }, $path);
        return is_string($decoded) ? $decoded : $path;
    }

    /**
     * A path with its `.` and `..` segments (also written `%2e`) resolved, as the URL parser does:
     * `/./maps/embed` and `/x/../maps/embed` are `/maps/embed`.
     *
     * @param string $path
     * @return string
     */
    private static function withoutDotSegments($path)
    {
        if ($path === '' || $path[0] !== '/' || (strpos($path, '.') === false && stripos($path, '%2e') === false)) {
            return $path;
        }
        $segments = explode('/', substr($path, 1));
        $last = count($segments) - 1;
        $out = array();
        foreach ($segments as $i => $segment) {
            $dots = str_ireplace('%2e', '.', $segment);
            if ($dots === '..') {
                array_pop($out);
            } elseif ($dots !== '.') {
                $out[] = $segment;
                continue;
            }
            if ($i === $last) {
                $out[] = ''; // `/a/..` and `/a/.` end with a slash
            }
        }
        return '/' . implode('/', $out);
    }
}
