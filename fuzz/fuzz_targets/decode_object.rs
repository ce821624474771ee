#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ctywire_fuzz::decode_object(data));
