// SwiftPM links executables with `main` renamed to <module>_main (so that tests can link them); libFuzzer's own `main`
// is therefore never used. This supplies cockpit_fuzz_main, which hands control to libFuzzer's driver.
#pragma once
