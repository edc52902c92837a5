<?php
/**
 * A zip reader for the package test, as Joomla's own native extractor reads an upload (central
 * directory, local headers, stored or deflated entries), with each entry's CRC-32 checked.
 */

namespace PagePulse\Tests;

use PHPUnit\Framework\Assert;

final class Zip
{
    /** @return array<string, string> name => bytes, in the archive's order */
    public static function read($path)
    {
        $data = file_get_contents($path);
        $end = strrpos($data, "PK\x05\x06");
        Assert::assertNotFalse($end, 'end of central directory');
        $eocd = unpack('Vsignature/vdisk/vstartDisk/ventriesHere/ventries/Vsize/Voffset/vcommentLength', substr($data, $end, 22));
        Assert::assertSame($eocd['entriesHere'], $eocd['entries']);
        Assert::assertSame(strlen($data), $end + 22 + $eocd['commentLength'], 'nothing after the directory');
        $entries = array();
        $at = $eocd['offset'];
        for ($i = 0; $i < $eocd['entries']; $i++) {
            $central = unpack('Vsignature/vmadeBy/vneeded/vflags/vmethod/vtime/vdate/Vcrc/Vcompressed/Vsize/vnameLength/vextraLength/vcommentLength/vdisk/vinternal/Vexternal/Voffset', substr($data, $at, 46));
            Assert::assertSame(0x02014b50, $central['signature']);
            $name = substr($data, $at + 46, $central['nameLength']);
            $at += 46 + $central['nameLength'] + $central['extraLength'] + $central['commentLength'];
            $local = unpack('Vsignature/vneeded/vflags/vmethod/vtime/vdate/Vcrc/Vcompressed/Vsize/vnameLength/vextraLength', substr($data, $central['offset'], 30));
            Assert::assertSame(0x04034b50, $local['signature'], $name);
            Assert::assertSame(substr($data, $central['offset'] + 30, $local['nameLength']), $name);
            foreach (array('method', 'crc', 'compressed', 'size') as $field) {
                Assert::assertSame($central[$field], $local[$field], $name . ' ' . $field);
            }
            $body = substr($data, $central['offset'] + 30 + $local['nameLength'] + $local['extraLength'], $central['compressed']);
            Assert::assertContains($central['method'], array(0, 8), $name);
            $bytes = $central['method'] === 8 ? gzinflate($body) : $body;
            Assert::assertSame($central['size'], strlen($bytes), $name);
            Assert::assertSame($central['crc'], crc32($bytes), $name . ' CRC-32');
            Assert::assertArrayNotHasKey($name, $entries, 'one entry per name');
            $entries[$name] = $bytes;
        }
        return $entries;
    }
}
