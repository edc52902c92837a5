<?php
/**
 * The PHP 7.2 guard (scripts/php-compat.php) finds each construct newer than 7.2, and finds
 * nothing in the package's PHP.
 */

use PHPUnit\Framework\TestCase;

require_once PAGEPULSE_ROOT . '/scripts/php-compat.php';

final class CompatTest extends TestCase
{
    /** @return array<string, array{0: string}> */
    public function newer()
    {
        $cases = array(
            'typed property' => 'class A { public int $x; }',
            'constructor promotion' => 'class A { public function __construct(private $y) {} }',
            'trailing comma in parameters' => 'function f($a, $b,) {}',
            'trailing comma in a call' => 'f(1, 2,);',
            'trailing comma in a use list' => '$f = function () use ($a, $b,) {};',
            'arrow function' => '$f = fn($a) => $a;',
            '??=' => '$b ??= 1;',
            'match' => '$c = match($a) { 1 => 2 };',
            'nullsafe' => '$d = $o?->x;',
            'named argument' => 'f(name: 1);',
            'union type' => 'function g(int|string $a) {}',
            'mixed' => 'function g(): mixed {}',
            'static return' => 'class S { public function a(): static {} }',
            'str_contains' => '$x = str_contains("a", "b");',
            'array_key_first' => '$x = array_key_first($a);',
            'array spread' => '$e = [...$arr];',
            'catch without variable' => 'try {} catch (Exception) {}',
            'numeric separator' => '$n = 1_000;',
            'flexible heredoc' => "\$h = <<<EOT\n   x\n   EOT;\n",
            '::class on an object' => '$z = $obj::class;',
            'first-class callable' => '$q = strlen(...);',
            'new in an initializer' => 'function k($a = new B) {}',
            'new in a constant' => 'const X = new B;',
            'new in a static variable' => 'function m() { static $s = new B; }',
            'attribute' => '#[Attr] function z() {}',
            'enum' => 'enum S {}',
            'readonly' => 'class R { public readonly int $a; }',
            'throw expression' => '$y = $a ?: throw new E;',
        );
        return array_map(function ($code) {
            return array($code);
        }, $cases);
    }

    /** @dataProvider newer */
    public function testFindsWhatPhp72Lacks($code)
    {
        $this->assertNotEmpty(php72Findings("<?php\n" . $code));
    }

    public function testPhp72ConstructsPass()
    {
        $this->assertSame(array(), php72Findings("<?php\nfunction ok(?int \$a, object \$o, ...\$rest): void {}\n\$a = \$b ?? 1;\n\$x = [1, 2,];\n\$s = A::class;\nlist(\$a, \$b) = [1, 2];\n\$c = new class { public \$p = array(); const C = 1; };\nconst D = 2;\nfunction st() { static \$n = 0; }\ntry {} catch (\\Throwable \$e) {}\n\$h = <<<EOT\nx\nEOT;\n"));
    }

    public function testThePackageIsPhp72()
    {
        $files = array_merge(glob(PAGEPULSE_SOURCE . '/*.php'), glob(PAGEPULSE_SOURCE . '/lib/*.php'));
        $this->assertCount(6, $files);
        foreach ($files as $file) {
            $this->assertSame(array(), php72Findings(file_get_contents($file)), $file);
        }
    }
}
