<?php
/**
 * PHP 7.2 guard for the Joomla package (Joomla 3.9 sites run PHP 7.x): parses each file with
 * Debian's nikic/php-parser (the `php-parser` package phpunit depends on), its lexer emulating
 * PHP 7.2 (so `fn`, `match`, `enum`, `readonly` are plain names there and `??=`, `?->`, `#[`,
 * `1_000` do not lex), and walks the tree for what 7.2's grammar lacks: typed properties,
 * union/intersection/mixed/never/static/false/null types, constructor promotion, named
 * arguments, arrow functions, match, nullsafe, throw expressions, first-class callables,
 * `new` in initializers, catch without a variable, `::class` on objects, array spread, trailing
 * commas in parameter, use and call lists, flexible heredoc, numeric literal separators; and
 * calls of functions PHP 7.2 does not have.
 *
 *   php scripts/php-compat.php FILE...      prints one line per finding, exits 1 when there is any
 */

require_once '/usr/share/php/PhpParser/autoload.php';

use PhpParser\Lexer\Emulative;
use PhpParser\Node;
use PhpParser\NodeTraverser;
use PhpParser\NodeVisitorAbstract;
use PhpParser\ParserFactory;

/** Functions added after PHP 7.2 (a call is a fatal error on a 7.2 site). */
const NEWER_FUNCTIONS = array(
    'array_key_first' => '7.3', 'array_key_last' => '7.3', 'is_countable' => '7.3', 'hrtime' => '7.3',
    'net_get_interfaces' => '7.3', 'gc_status' => '7.3', 'mb_str_split' => '7.4', 'get_mangled_object_vars' => '7.4',
    'str_contains' => '8.0', 'str_starts_with' => '8.0', 'str_ends_with' => '8.0', 'fdiv' => '8.0',
    'get_debug_type' => '8.0', 'get_resource_id' => '8.0', 'preg_last_error_msg' => '8.0', 'array_is_list' => '8.1',
    'enum_exists' => '8.1', 'fsync' => '8.1', 'fdatasync' => '8.1', 'json_validate' => '8.3', 'mb_str_pad' => '8.3',
    'str_increment' => '8.3', 'str_decrement' => '8.3', 'array_find' => '8.4', 'array_any' => '8.4', 'array_all' => '8.4',
    'mb_trim' => '8.4', 'mb_ucfirst' => '8.4',
);

/** Type names 7.2 does not know as types (they would be read as class names, or not parse). */
const NEWER_TYPES = array('mixed' => '8.0', 'never' => '8.1', 'false' => '8.0 (standalone 8.2)', 'null' => '8.2', 'true' => '8.2', 'static' => '8.0');

/** @return string[] findings, `line: what (PHP version)` */
function php72Findings($code)
{
    if (!class_exists('PhpParser\\Lexer\\Emulative') || class_exists('PhpParser\\PhpVersion')) {
        // php-parser 5 (Debian 13) builds its lexer and parser differently: say so rather than guess
        return array('0: scripts/php-compat.php needs php-parser 4.x (Debian 12\'s php-parser package)');
    }
    $lexer = new Emulative(array('phpVersion' => '7.2', 'usedAttributes' => array('startLine', 'startFilePos', 'endFilePos')));
    $parser = (new ParserFactory())->create(ParserFactory::ONLY_PHP7, $lexer);
    try {
        $ast = $parser->parse($code);
    } catch (\PhpParser\Error $error) {
        return array($error->getStartLine() . ': does not parse as PHP 7.2: ' . $error->getRawMessage());
    }
    $visitor = new class($code) extends NodeVisitorAbstract {
        /** @var string[] */
        public $findings = array();
        /** @var string */
        private $code;

        public function __construct($code)
        {
            $this->code = $code;
        }

        private function add(Node $node, $what)
        {
            $this->findings[] = $node->getStartLine() . ': ' . $what;
        }

        /** Whether the list closing at $end (the offset of its `)`) ends with a comma. */
        private function trailingComma($end)
        {
            return $end !== null && preg_match('/,\s*(?:(?:\/\/|#)[^\n]*\n\s*|\/\*.*?\*\/\s*)*$/s', substr($this->code, 0, $end));
        }

        private function type($type, Node $owner)
        {
            if ($type instanceof Node\UnionType) {
                $this->add($owner, 'union type (8.0)');
            } elseif ($type instanceof Node\IntersectionType) {
                $this->add($owner, 'intersection type (8.1)');
            } elseif ($type instanceof Node\NullableType) {
                $this->type($type->type, $owner);
            } elseif ($type instanceof Node\Identifier && isset(NEWER_TYPES[$type->toLowerString()])) {
                $this->add($owner, $type->toLowerString() . ' type (' . NEWER_TYPES[$type->toLowerString()] . ')');
            } elseif ($type instanceof Node\Name && isset(NEWER_TYPES[$type->toLowerString()])) {
                $this->add($owner, $type->toLowerString() . ' type (' . NEWER_TYPES[$type->toLowerString()] . ')');
            }
        }

        /** The offset of the `)` that closes a list starting after $from, at depth 0. */
        private function closing($from)
        {
            $depth = 0;
            $length = strlen($this->code);
            for ($i = $from; $i < $length; $i++) {
                $char = $this->code[$i];
                if ($char === '(' || $char === '[') {
                    $depth++;
                } elseif ($char === ')' || $char === ']') {
                    if ($depth === 0) {
                        return $i;
                    }
                    $depth--;
                }
            }
            return null;
        }

        public function enterNode(Node $node)
        {
            if ($node instanceof Node\Stmt\Property && $node->type !== null) {
                $this->add($node, 'typed property (7.4)');
            }
            if ($node instanceof Node\Param) {
                if ($node->flags) {
                    $this->add($node, 'constructor promotion (8.0)');
                }
                $this->type($node->type, $node);
            }
            if ($node instanceof Node\FunctionLike) {
                $this->type($node->getReturnType(), $node);
                $params = $node->getParams();
                if ($params && $this->trailingComma($this->closing(end($params)->getAttribute('endFilePos') + 1))) {
                    $this->add($node, 'trailing comma in a parameter list (8.0)');
                }
            }
            if ($node instanceof Node\Expr\Closure && $node->uses && $this->trailingComma($this->closing(end($node->uses)->getAttribute('endFilePos') + 1))) {
                $this->add($node, 'trailing comma in a closure use list (8.0)');
            }
            if ($node instanceof Node\Expr\ArrowFunction) {
                $this->add($node, 'arrow function (7.4)');
            }
            if ($node instanceof Node\Expr\Match_) {
                $this->add($node, 'match (8.0)');
            }
            if ($node instanceof Node\Expr\NullsafeMethodCall || $node instanceof Node\Expr\NullsafePropertyFetch) {
                $this->add($node, 'nullsafe operator (8.0)');
            }
            if ($node instanceof Node\Expr\AssignOp\Coalesce) {
                $this->add($node, '??= (7.4)');
            }
            if ($node instanceof Node\Expr\Throw_) {
                $this->add($node, 'throw expression (8.0)');
            }
            if ($node instanceof Node\Stmt\Catch_ && $node->var === null) {
                $this->add($node, 'catch without a variable (8.0)');
            }
            if ($node instanceof Node\Expr\ClassConstFetch && !($node->class instanceof Node\Name) && $node->name instanceof Node\Identifier && $node->name->toLowerString() === 'class') {
                $this->add($node, '::class on an object (8.0)');
            }
            if ($node instanceof Node\Expr\ArrayItem && $node->unpack) {
                $this->add($node, 'spread in an array (7.4)');
            }
            if (($node instanceof Node\Scalar\LNumber || $node instanceof Node\Scalar\DNumber) && strpos(substr($this->code, $node->getAttribute('startFilePos'), $node->getAttribute('endFilePos') - $node->getAttribute('startFilePos') + 1), '_') !== false) {
                $this->add($node, 'numeric literal separator (7.4)');
            }
            if ($node instanceof Node\Stmt\Enum_) {
                $this->add($node, 'enum (8.1)');
            }
            if ($node instanceof Node\AttributeGroup) {
                $this->add($node, 'attribute (8.0)');
            }
            if ($node instanceof Node\VariadicPlaceholder) {
                $this->add($node, 'first-class callable (8.1)');
            }
            if ($node instanceof Node\Expr\CallLike && !$node->isFirstClassCallable()) {
                $args = $node->getArgs();
                foreach ($args as $arg) {
                    if ($arg->name !== null) {
                        $this->add($node, 'named argument (8.0)');
                    }
                }
                if ($args && $this->trailingComma($this->closing(end($args)->getAttribute('endFilePos') + 1))) {
                    $this->add($node, 'trailing comma in a call (7.3)');
                }
            }
            if ($node instanceof Node\Expr\FuncCall && $node->name instanceof Node\Name) {
                $name = strtolower(ltrim($node->name->toString(), '\\'));
                if (isset(NEWER_FUNCTIONS[$name])) {
                    $this->add($node, $name . '() (' . NEWER_FUNCTIONS[$name] . ')');
                }
            }
            foreach (array('Param' => 'default', 'Const_' => 'value', 'Stmt\\PropertyProperty' => 'default', 'Stmt\\StaticVar' => 'default') as $class => $field) {
                if (is_a($node, 'PhpParser\\Node\\' . $class) && $node->$field !== null) {
                    $finder = new \PhpParser\NodeFinder();
                    if ($finder->findFirstInstanceOf(array($node->$field), Node\Expr\New_::class)) {
                        $this->add($node, 'new in an initializer (8.1)');
                    }
                }
            }
        }
    };
    $traverser = new NodeTraverser();
    $traverser->addVisitor($visitor);
    $traverser->traverse($ast);
    $findings = $visitor->findings;
    // flexible heredoc/nowdoc (7.3): the closing marker indented or followed by more code on its line
    if (preg_match_all('/<<<[ \t]*(["\']?)([A-Za-z_][A-Za-z0-9_]*)\1\r?\n.*?\n([ \t]*)\2\b(.?)/s', $code, $heredocs, PREG_SET_ORDER | PREG_OFFSET_CAPTURE)) {
        foreach ($heredocs as $heredoc) {
            if ($heredoc[3][0] !== '' || ($heredoc[4][0] !== ';' && $heredoc[4][0] !== "\n" && $heredoc[4][0] !== "\r" && $heredoc[4][0] !== '')) {
                $findings[] = (substr_count(substr($code, 0, $heredoc[0][1]), "\n") + 1) . ': flexible heredoc (7.3)';
            }
        }
    }
    return $findings;
}

if (PHP_SAPI === 'cli' && isset($argv[0]) && realpath($argv[0]) === __FILE__) {
    $failed = false;
    foreach (array_slice($argv, 1) as $file) {
        foreach (php72Findings(file_get_contents($file)) as $finding) {
            echo $file . ':' . $finding . PHP_EOL;
            $failed = true;
        }
    }
    exit($failed ? 1 : 0);
}
