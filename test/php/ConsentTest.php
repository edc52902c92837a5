<?php
/**
 * What the visitor's cookies allow on the server, by the bundle's start-up rule
 * (docs/protocol.md#consent-at-start-up, #revision), and never more where the server cannot know.
 */

use PagePulse\Joomla\Consent;
use PagePulse\Tests\Pages;
use PHPUnit\Framework\TestCase;

final class ConsentTest extends TestCase
{
    /** @return array<string, array{0: string, 1: string, 2: int, 3: string}> cookie header, compliance, revision => allowed categories and services */
    public function cases()
    {
        return array(
            'first visit, opt-out' => array('', 'opt-out', 0, '1.2|'),
            'first visit, opt-in' => array('', 'opt-in', 0, '1|'),
            'our categories cookie' => array('cookieconsent_status=allow; cookieconsent_categories=1.3', 'opt-out', 0, '1.3|'),
            'declined with our cookie' => array('cookieconsent_status=deny; cookieconsent_categories=1', 'opt-out', 0, '1|'),
            'empty categories cookie: the locked only' => array('cookieconsent_status=deny; cookieconsent_categories=', 'opt-out', 0, '1|'),
            'a bad categories cookie is not ours' => array('cookieconsent_status=dismiss; cookieconsent_categories=1.9', 'opt-out', 0, '1.2|'),
            'categories without a status: a first visit' => array('cookieconsent_categories=1.2.3.4', 'opt-out', 0, '1.2|'),
            'com_gdpr allow (localStorage unseen): the locked only' => array('cookieconsent_status=allow', 'opt-out', 0, '1|'),
            'com_gdpr deny' => array('cookieconsent_status=deny', 'opt-out', 0, '1|'),
            'com_gdpr dismiss: the defaults' => array('cookieconsent_status=dismiss', 'opt-in', 0, '1|'),
            'services on their own' => array('pagepulse_services=youtube.nope.vimeo.youtube', 'opt-out', 0, '1.2|youtube.vimeo'),
            'an older revision: a first visit, no service' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=1; pagepulse_services=youtube', 'opt-out', 2, '1.2|'),
            'the current revision' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=2', 'opt-out', 2, '1.2.3.4|'),
            'a later revision counts' => array('cookieconsent_status=allow; cookieconsent_categories=1.4; cookieconsent_revision=7', 'opt-out', 2, '1.4|'),
            'no revision cookie at revision 0' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4', 'opt-out', 0, '1.2.3.4|'),
            'a revision cookie that is no number: locked only' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=1e3', 'opt-out', 0, '1|'),
            'the first cookie of a name counts' => array('cookieconsent_status=deny; cookieconsent_categories=1; cookieconsent_categories=1.2.3.4', 'opt-out', 0, '1|'),
            'percent-encoded values' => array('cookieconsent_status=allow; cookieconsent_categories=1%2E3; pagepulse_services=youtube%2Evimeo', 'opt-out', 0, '1.3|youtube.vimeo'),
            'a value that does not decode is none' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4%', 'opt-out', 0, '1|'),
            // the bundle's effectiveRevision: the larger of the page's and the one the browser met (audit, smaller point)
            'a revision met before outranks a lowered page revision' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=4; pagepulse_revision=5; pagepulse_services=youtube', 'opt-out', 4, '1.2|'),
            'a revision met before, chosen under it' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=5; pagepulse_revision=5', 'opt-out', 4, '1.2.3.4|'),
            'a revision met before below the page\'s changes nothing' => array('cookieconsent_status=allow; cookieconsent_categories=1.3; cookieconsent_revision=2; pagepulse_revision=1', 'opt-out', 2, '1.3|'),
            'a revision met before that is no number: locked only' => array('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; pagepulse_revision=1e3', 'opt-out', 0, '1|'),
            'spaces and stray parts' => array(' ; cookieconsent_status = allow ;junk; cookieconsent_categories= 1.2.3.4 ', 'opt-out', 0, '1.2.3.4|'),
        );
    }

    /** @dataProvider cases */
    public function testTheStartUpRule($header, $compliance, $revision, $expected)
    {
        $policy = Pages::policy();
        $policy->compliance = $compliance;
        $policy->revision = $revision;
        $consent = Consent::fromCookieHeader($policy, $header);
        $on = array_keys(array_filter($consent->categories));
        $this->assertSame($expected, implode('.', $on) . '|' . implode('.', $consent->services));
    }

    /** Whether the bundle surely counts a choice (it then shows no banner): the print views and modals ask. */
    public function testAChoiceCountsOnlyWhereTheBundleCountsIt()
    {
        $policy = Pages::policy();
        $policy->revision = 3;
        $chosen = function ($header) use ($policy) {
            return Consent::fromCookieHeader($policy, $header)->chosen;
        };
        $this->assertFalse($chosen(''));
        $this->assertFalse($chosen('cookieconsent_categories=1.2.3.4; cookieconsent_revision=3'));
        $this->assertFalse($chosen('cookieconsent_status=maybe; cookieconsent_revision=3'));
        $this->assertTrue($chosen('cookieconsent_status=deny; cookieconsent_revision=3'));
        $this->assertTrue($chosen('cookieconsent_status=dismiss; cookieconsent_revision=4'));
        $this->assertFalse($chosen('cookieconsent_status=allow; cookieconsent_revision=2'), 'an older revision');
        $this->assertFalse($chosen('cookieconsent_status=allow; cookieconsent_revision=3; pagepulse_revision=4'), 'a newer revision met before');
        $this->assertFalse($chosen('cookieconsent_status=allow; cookieconsent_revision=3.0'), 'unsure');
    }

    public function testAServiceAllowsItsElementsOnly()
    {
        $policy = Pages::policy();
        $consent = Consent::fromCookieHeader($policy, 'pagepulse_services=youtube');
        $this->assertTrue($consent->allows(4, 'youtube'));
        $this->assertFalse($consent->allows(4, 'vimeo'));
        $this->assertFalse($consent->allows(4, null));
        $this->assertTrue($consent->allows(1, null));
        $this->assertFalse($consent->allowsEverything());
        $this->assertTrue(Consent::fromCookieHeader($policy, 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4')->allowsEverything());
    }

    public function testComGdprSessionSwitchesKeepACategoryOffBeforeAChoice()
    {
        $policy = Pages::policy();
        $policy->categories[2]['defaultOn'] = false;
        $this->assertSame(array(1 => true, 2 => false, 3 => false, 4 => false), Consent::fromCookieHeader($policy, '')->categories);
    }
}
