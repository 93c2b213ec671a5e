#!/usr/bin/env python3
"""Unit tests for check_polars.py on a polar worked out by hand, and the shipped table and its sources.

The hand-worked polar: s(v) = 0.001 v^2 - 0.02 v + 0.4 (v and s in m/s, sink positive down).
  v = 20 m/s (72 km/h):  0.4 - 0.4 + 0.4 = 0.4 m/s
  v = 30 m/s (108 km/h): 0.9 - 0.6 + 0.4 = 0.7 m/s
  v = 40 m/s (144 km/h): 1.6 - 0.8 + 0.4 = 1.2 m/s
Best glide where the tangent from the origin touches: v* = sqrt(c / a) = sqrt(400) = 20 m/s = 72 km/h,
s(v*) = 0.4 m/s, L/D = 20 / 0.4 = 50.

Run:  python3 -m unittest discover -s Tests/Tools -p 'test_check_polars.py'     (Python 3.11, stdlib only)
"""
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_polars  # noqa: E402

HEADER = ",".join(check_polars.COLUMNS)
SOURCES = "# Sources\n\n### `hand-worked`\n\nA polar worked out by hand in the test.\n"
GOOD = "Handglider,Hand 1|HAND-1,400,10,250,500,100,72,0.4,108,0.7,144,1.2,50,72,hand-worked"


def run(lines, sources=SOURCES):
    """check_polars.check on a table of the given data lines; (failures, printed text)."""
    with tempfile.TemporaryDirectory() as folder:
        table = os.path.join(folder, "polars.csv")
        docs = os.path.join(folder, "sources.md")
        with open(table, "w", encoding="utf-8") as handle:
            handle.write("# comment line\n" + "\n".join(lines) + "\n")
        with open(docs, "w", encoding="utf-8") as handle:
            handle.write(sources)
        out = io.StringIO()
        failures = check_polars.check(table, docs, out=out)
        return failures, out.getvalue()


class ParabolaTests(unittest.TestCase):
    def test_coefficients_of_the_hand_worked_polar(self):
        a, b, c = check_polars.parabola([(20, 0.4), (30, 0.7), (40, 1.2)])
        self.assertAlmostEqual(a, 0.001, places=12)
        self.assertAlmostEqual(b, -0.02, places=12)
        self.assertAlmostEqual(c, 0.4, places=12)

    def test_best_glide_of_the_hand_worked_polar(self):
        ratio, speed_kmh = check_polars.best_glide([(72, 0.4), (108, 0.7), (144, 1.2)])
        self.assertAlmostEqual(ratio, 50.0, places=9)
        self.assertAlmostEqual(speed_kmh, 72.0, places=9)

    def test_best_glide_of_the_default_polar_in_docs_glide(self):
        # docs/glide.md: a = 0.004065 s/m, b = -0.1621, c = 2.267 m/s, best glide 33.5 at 85 km/h, 2.6 m/s at 150.
        # By hand: 70 km/h = 19.444 m/s: 1.5369 - 3.1519 + 2.267 = 0.652; 85 km/h = 23.611 m/s: 2.2662 - 3.8274
        # + 2.267 = 0.706; 150 km/h = 41.667 m/s: 7.0573 - 6.7542 + 2.267 = 2.570.
        ratio, speed_kmh = check_polars.best_glide([(70, 0.652), (85, 0.706), (150, 2.570)])
        self.assertAlmostEqual(ratio, 33.5, delta=0.2)
        self.assertAlmostEqual(speed_kmh, 85.0, delta=1.0)

    def test_points_that_bend_the_wrong_way_have_no_best_glide(self):
        # Slopes 0.1/10 then 0/10 km/h: the parabola opens downward (a < 0).
        with self.assertRaises(check_polars.RowError):
            check_polars.best_glide([(72, 0.6), (108, 0.7), (144, 0.7)])


class TableTests(unittest.TestCase):
    def test_a_good_row_passes_and_reports_both_ratios(self):
        failures, text = run([HEADER, GOOD])
        self.assertEqual(failures, 0, text)
        self.assertIn("implied best L/D 50.0 at 72 km/h; stated 50 at 72 km/h (0.0% off)", text)
        self.assertIn("1 types, 0 failed", text)

    # One changed field of the good row each: (what is checked, the text replaced, its replacement, failures
    # expected, a line the report must hold).
    ONE_CHANGE = [
        ("stated ratio within 15 % passes: 50 against 45, 11.1 % off", ",50,72,", ",45,72,", 0, "11.1% off"),
        ("stated ratio more than 15 % off fails: 50 against 42, 19 % off", ",50,72,", ",42,72,", 1,
         "19% off the stated L/D"),
        ("no stated ratio is reported as such", ",50,72,", ",,,", 0, "the source states none"),
        ("speeds that do not rise fail", "72,0.4,108,0.7", "108,0.4,72,0.7", 1, "speeds do not rise"),
        ("an implausible sink fails", "72,0.4,", "72,0.3,", 1, "outside 0.4-2.5 m/s"),
        ("an undocumented source key fails", "hand-worked", "hand-worked|nowhere", 1, "['nowhere']"),
        ("a reference mass over the maximum fails", ",400,10,250,500,", ",600,10,250,500,", 1, "over the maximum mass"),
    ]

    def test_one_changed_field(self):
        for what, old, new, expected_failures, expected_text in self.ONE_CHANGE:
            with self.subTest(what):
                self.assertIn(old, GOOD)
                failures, text = run([HEADER, GOOD.replace(old, new)])
                self.assertEqual(failures, expected_failures, text)
                self.assertIn(expected_text, text)

    def test_malformed_number_fails_without_stopping_the_check(self):
        second = GOOD.replace("Handglider,Hand 1|HAND-1", "Other,Other 1")
        failures, text = run([HEADER, GOOD.replace(",0.7,", ",0.7x,", 1), second])
        self.assertEqual(failures, 1, text)
        self.assertIn("w2_ms is not a number: '0.7x'", text)
        self.assertIn("ok   Other", text)
        self.assertIn("2 types, 1 failed", text)

    def test_alias_naming_two_types_fails(self):
        second = GOOD.replace("Handglider,Hand 1|HAND-1", "Other,hand-1")
        failures, text = run([HEADER, GOOD, second])
        self.assertEqual(failures, 1, text)
        self.assertIn("also names Handglider", text)

    def test_row_with_a_column_too_many_fails(self):
        failures, text = run([HEADER, GOOD.replace(",0.7,", ",0,7,", 1)])
        self.assertEqual(failures, 1, text)
        self.assertIn("16 columns expected", text)

    def test_wrong_header_fails(self):
        failures, text = run([HEADER.replace("w3_ms", "s3_ms"), GOOD])
        self.assertEqual(failures, 1, text)
        self.assertIn("FAIL header", text)


class ShippedTableTests(unittest.TestCase):
    def test_shipped_table_and_sources_pass(self):
        out = io.StringIO()
        failures = check_polars.check(check_polars.DEFAULT_CSV, check_polars.DEFAULT_SOURCES, out=out)
        self.assertEqual(failures, 0, out.getvalue())


if __name__ == "__main__":
    unittest.main()
