use super::*;
use std::collections::hash_map::DefaultHasher;

fn p(s: &str) -> Number {
    Number::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// As [`p`], without the limit on binary exponents: exact binary values such as
/// `1p-1074` (the smallest float64) for tests.
fn pb(s: &str) -> Number {
    parse_general(s, i64::MAX).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

fn fl(f: f64) -> Number {
    Number::from_f64(f).unwrap()
}

fn bits(b: u64) -> Number {
    fl(f64::from_bits(b))
}

fn kind(n: &Number) -> &'static str {
    match n.0 {
        Repr::Int(_) => "int",
        Repr::Float(_) => "float",
        Repr::Decimal(_) => "dec",
        Repr::Infinity { .. } => "inf",
    }
}

/// "0." then `zeros` zeros then `digits`.
fn small(zeros: usize, digits: &str) -> String {
    format!("0.{}{digits}", "0".repeat(zeros))
}

fn hash_of(n: &Number) -> u64 {
    let mut h = DefaultHasher::new();
    n.hash(&mut h);
    h.finish()
}

#[test]
fn size() {
    assert_eq!(std::mem::size_of::<Number>(), 16);
}

#[test]
fn parse_accepts() {
    // (text, Display, representation)
    let table: &[(&str, &str, &str)] = &[
        ("0", "0", "int"),
        ("+0", "0", "int"),
        ("00", "0", "int"),
        ("0.000", "0", "int"),
        ("0e99999999999", "0", "int"),
        ("0e-9223372036854775808", "0", "int"),
        ("-0", "-0", "float"),
        ("-0.0", "-0", "float"),
        ("-0e5", "-0", "float"),
        ("-.0", "-0", "float"),
        ("1", "1", "int"),
        ("+1", "1", "int"),
        ("-1", "-1", "int"),
        ("007", "7", "int"),
        ("1.", "1", "int"),
        ("5.", "5", "int"),
        ("5.0", "5", "int"),
        ("1.50", "1.5", "dec"),
        (".5", "0.5", "dec"),
        ("-.5", "-0.5", "dec"),
        ("+.5", "0.5", "dec"),
        ("1e3", "1000", "int"),
        ("1E3", "1000", "int"),
        ("1e+3", "1000", "int"),
        ("1e-3", "0.001", "dec"),
        ("1e-7", "0.0000001", "dec"),
        ("100e-2", "1", "int"),
        ("1e0000000000000000000001", "10", "int"),
        ("1p10", "1024", "int"),
        ("1P10", "1024", "int"),
        ("1.5p-1", "0.75", "dec"),
        ("0.1p1", "0.2", "dec"),
        ("3p-2", "0.75", "dec"),
        ("5p1", "10", "int"),
        ("1p-10", "0.0009765625", "dec"),
        ("-1p63", "-9223372036854775808", "int"),
        ("1p63", "9223372036854775808", "dec"),
        ("1000p-3", "125", "int"),
        ("1e1", "10", "int"),
        ("Inf", "+Inf", "inf"),
        ("inf", "+Inf", "inf"),
        ("+Inf", "+Inf", "inf"),
        ("-Inf", "-Inf", "inf"),
        ("-inf", "-Inf", "inf"),
        ("9223372036854775807", "9223372036854775807", "int"),
        ("-9223372036854775808", "-9223372036854775808", "int"),
        ("9223372036854775808", "9223372036854775808", "dec"),
        ("-9223372036854775809", "-9223372036854775809", "dec"),
        ("09223372036854775807", "9223372036854775807", "int"),
        ("18446744073709551615", "18446744073709551615", "dec"),
        ("1e18", "1000000000000000000", "int"),
        ("1e19", "10000000000000000000", "dec"),
        ("1e20", "100000000000000000000", "dec"),
        ("0.1", "0.1", "dec"),
        ("0.8", "0.8", "dec"),
        ("0.30000000000000004", "0.30000000000000004", "dec"),
        ("123.4560", "123.456", "dec"),
        (
            "0.1000000000000000055511151231257827021181583404541015625",
            "0.1000000000000000055511151231257827021181583404541015625",
            "dec",
        ),
    ];
    for &(text, display, repr) in table {
        let n = p(text);
        assert_eq!(n.to_string(), display, "{text:?}");
        assert_eq!(kind(&n), repr, "{text:?}");
        assert_eq!(text.parse::<Number>().unwrap().to_string(), display);
    }
}

#[test]
fn parse_rejects() {
    let table = [
        "",
        " ",
        "+",
        "-",
        ".",
        "+.",
        "-.",
        "e5",
        ".e5",
        "1e",
        "1e+",
        "1e-",
        "1p",
        "1p-",
        "1e5.5",
        "1e5e5",
        "1p5e5",
        "1e5p5",
        "1..2",
        "1.2.3",
        "--1",
        "+-1",
        "-+1",
        " 1",
        "1 ",
        "1\n",
        "1_0",
        "1_000",
        "0x10",
        "0X1p4",
        "0b1",
        "0o7",
        "INF",
        "Inf ",
        "Infinity",
        "-infinity",
        "infinity",
        "+Infinity",
        "nan",
        "NaN",
        "-nan",
        "iNf",
        "1f",
        "1d",
        "1.5f",
        "\u{661}",
        "1\u{661}",
        "\u{ff11}",
        "1,5",
        "1e5 ",
        "e",
        // Exponents that overflow int64 are refused, as Go refuses them.
        "0e9223372036854775808",
        "0e-9223372036854775809",
        "1e99999999999999999999",
    ];
    for text in table {
        let err = Number::parse(text).expect_err(text);
        assert!(
            err.to_string().starts_with("invalid number"),
            "{text:?}: {err}"
        );
    }
    assert_eq!(
        Number::parse("abc").unwrap_err().to_string(),
        "invalid number \"abc\""
    );
    let long = format!("x{}", "1".repeat(100));
    assert_eq!(
        Number::parse(&long).unwrap_err().to_string(),
        format!("invalid number \"x{}...\"", "1".repeat(39))
    );
}

#[test]
fn limits() {
    let too_long = "number text longer than 4096 bytes";
    let text = "1".repeat(MAX_NUMBER_TEXT + 1);
    assert_eq!(Number::parse(&text).unwrap_err().to_string(), too_long);
    let text = format!("0.{}", "0".repeat(MAX_NUMBER_TEXT));
    assert_eq!(Number::parse(&text).unwrap_err().to_string(), too_long);
    // Exactly at the limit.
    let text = "9".repeat(MAX_NUMBER_TEXT);
    assert_eq!(p(&text).to_string(), text);
    assert_eq!(p("1e4095").to_string().len(), 4096);
    assert_eq!(p("1e-4094").to_string().len(), 4096);
    assert_eq!(p("-1e4094").to_string().len(), 4096);
    // 2^128 / 10^40: a positive binary and a negative decimal exponent.
    let n = p("0.0000000000000000000000000000000000000001p128");
    assert_eq!(n.to_string(), "0.0340282366920938463463374607431768211456");
    // 10^40 / 2^128.
    let n = p("10000000000000000000000000000000000000000p-128");
    assert_eq!(
        n.to_string(),
        "29.3873587705571876992184134305561419454666389193021880377187926569604314863681793212890625"
    );
    // A binary exponent within its limit can still make the text too long.
    let text = format!("{}p100", "9".repeat(4090));
    assert!(Number::parse(&text).unwrap_err().is_limit_exceeded());
    // Binary exponents beyond MAX_BINARY_EXPONENT are refused before anything is
    // computed, whatever the value.
    for text in ["1p129", "1p-129", "0p1000", "1p-4094", "1p13606", "1p-4000"] {
        let err = Number::parse(text).expect_err(text);
        assert!(err.is_limit_exceeded(), "{text}");
        assert_eq!(
            err.to_string(),
            format!("number {text:?} has a binary exponent beyond the limit of 128 in magnitude")
        );
    }
    assert_eq!(p("1p128").to_string().len(), 39);
    assert_eq!(p("1p-128").to_string().len(), 130);
    // Factors of two and five in the mantissa cancel.
    assert_eq!(p("1024p-10").to_string(), "1");
    assert_eq!(p("0.000000000931322574615478515625p30").to_string(), "1");
    assert_eq!(p("0.000000000931322574615478515625p29").to_string(), "0.5");
    // Values whose plain text would be too long, refused before expansion.
    let hostile = [
        format!("0.{}1p999999999999", "0".repeat(4000)),
        format!("1{}p-999999999999", "0".repeat(4000)),
        format!("{}p-13607", "5".repeat(4000)),
        format!("{}p9999", "9".repeat(4000)),
    ];
    for text in hostile.iter().map(String::as_str).chain([
        "1e4096",
        "-1e4095",
        "1e-4095",
        "1p-4095",
        "1p13607",
        "1p-13607",
        "1e100000",
        "1e-100000",
        "1p100000",
        "1p-100000",
        "1e999999999999",
        "1e-999999999999",
        "1p999999999999",
        "1p-999999999999",
        "1e9223372036854775807",
        "1e-9223372036854775808",
        "1p9223372036854775807",
        "1p-9223372036854775808",
    ]) {
        let err = Number::parse(text).expect_err(text);
        assert!(
            err.to_string()
                .ends_with("longer than 4096 bytes in plain decimal form")
                || err
                    .to_string()
                    .ends_with("binary exponent beyond the limit of 128 in magnitude"),
            "{text}: {err}"
        );
        assert!(err.is_limit_exceeded(), "{text}");
    }
    assert!(Number::parse("1e100000").unwrap_err().is_limit_exceeded());
    assert!(Number::parse(&"1".repeat(5000))
        .unwrap_err()
        .is_limit_exceeded());
    assert!(!Number::parse("1e").unwrap_err().is_limit_exceeded());
    assert!(!Number::try_from(f64::NAN).unwrap_err().is_limit_exceeded());
    assert_eq!(
        Number::parse("1e100000").unwrap_err().to_string(),
        "number \"1e100000\" is longer than 4096 bytes in plain decimal form"
    );
}

#[test]
fn display() {
    let max = format!("17976931348623157{}", "0".repeat(292));
    let table: Vec<(Number, String)> = vec![
        (fl(0.1), "0.1".into()),
        (fl(0.1 + 0.2), "0.30000000000000004".into()),
        (fl(1.0), "1".into()),
        (fl(-2.5), "-2.5".into()),
        (fl(0.0), "0".into()),
        (fl(-0.0), "-0".into()),
        (p("-0"), "-0".into()),
        (fl(1e-7), "0.0000001".into()),
        (fl(1e20), "100000000000000000000".into()),
        (fl(1e21), "1000000000000000000000".into()),
        (fl(1e23), "100000000000000000000000".into()),
        (fl(2f64.powi(60)), "1152921504606847000".into()),
        (fl(2f64.powi(63)), "9223372036854776000".into()),
        // Go's interval is symmetric at powers of two, so it finds shorter digits.
        (fl(2f64.powi(64)), "18446744073709550000".into()),
        (fl(2f64.powi(-25)), "0.00000002980232238769531".into()),
        (fl(2f64.powi(-1019)), small(306, "1780059086805761")),
        (fl(2f64.powi(-1022)), small(307, "22250738585072014")),
        (fl(1e300), format!("1{}", "0".repeat(300))),
        (fl(f64::MAX), max.clone()),
        (fl(-f64::MAX), format!("-{max}")),
        // Subnormals: shortest digits at 53-bit precision.
        (fl(5e-324), small(323, "4940656458412465")),
        (fl(-5e-324), format!("-{}", small(323, "4940656458412465"))),
        (bits(0x64), small(321, "49406564584124654")),
        (bits(0x000f_ffff_ffff_ffff), small(307, "2225073858507201")),
        // Ties between two shortest candidates go to even.
        (bits(0x4311_e52f_96e3_bb71), "1259266790452956.2".into()),
        // Go's digit walk misses a nearer candidate below a short upper bound.
        (bits(0x4390_1985_eec8_433f), "290026409908293560".into()),
        (bits(0x4396_1ef4_97ce_bf17), "398495062745400760".into()),
        (p("1e3"), "1000".into()),
        (p("1.50"), "1.5".into()),
        (p(".5"), "0.5".into()),
        (p("1e-7"), "0.0000001".into()),
        (p("1e400"), format!("1{}", "0".repeat(400))),
        (p("-1e-400"), format!("-{}", small(399, "1"))),
        (Number::from(u64::MAX), "18446744073709551615".into()),
        (
            Number::from(10_000_000_000_000_000_000u64),
            "10000000000000000000".into(),
        ),
        (Number::from(i64::MIN), "-9223372036854775808".into()),
        (Number::infinity(), "+Inf".into()),
        (Number::neg_infinity(), "-Inf".into()),
        (fl(f64::INFINITY), "+Inf".into()),
        (fl(f64::NEG_INFINITY), "-Inf".into()),
    ];
    for (n, want) in table {
        assert_eq!(n.to_string(), want, "{n:?}");
    }
}

#[test]
fn debug() {
    assert_eq!(format!("{:?}", fl(0.1)), "Number(0.1, float64)");
    assert_eq!(format!("{:?}", p("0.1")), "Number(0.1)");
    assert_eq!(format!("{:?}", Number::from(5)), "Number(5)");
    assert_eq!(format!("{:?}", Number::neg_infinity()), "Number(-Inf)");
}

#[test]
fn wire() {
    use WireNumber::{Float, Int, Text};
    let table: Vec<(Number, WireNumber<'static>)> = vec![
        (Number::from(1), Int(1)),
        (p("1"), Int(1)),
        (fl(1.0), Int(1)),
        (fl(-0.0), Int(0)),
        (p("-0"), Int(0)),
        (fl(1e18), Int(1_000_000_000_000_000_000)),
        (fl(-(2f64.powi(63))), Int(i64::MIN)),
        (p("-9223372036854775808"), Int(i64::MIN)),
        (p("5.0"), Int(5)),
        (p("1e3"), Int(1000)),
        (fl(1.5), Float(1.5)),
        (p("1.5"), Float(1.5)),
        (p("0.25"), Float(0.25)),
        (p("-0.5"), Float(-0.5)),
        (p("1.5p-1"), Float(0.75)),
        (pb("1p-1074"), Float(5e-324)),
        (fl(0.1), Float(0.1)),
        (fl(5e-324), Float(5e-324)),
        (fl(2f64.powi(63)), Float(2f64.powi(63))),
        (fl(1e20), Float(1e20)),
        (fl(f64::MAX), Float(f64::MAX)),
        (Number::infinity(), Float(f64::INFINITY)),
        (Number::neg_infinity(), Float(f64::NEG_INFINITY)),
        (p("0.1"), Text("0.1".into())),
        (p("0.8"), Text("0.8".into())),
        (p("9223372036854775808"), Text("9223372036854775808".into())),
        (
            p("-9223372036854775809"),
            Text("-9223372036854775809".into()),
        ),
        (Number::from(u64::MAX), Text("18446744073709551615".into())),
        (p("1e20"), Text("100000000000000000000".into())),
        (p("1e400"), Text(format!("1{}", "0".repeat(400)).into())),
        // Exactly a float64 but an integer: text, as go-cty.
        (p("1p63"), Text("9223372036854775808".into())),
        // More than 53 bits, or below the smallest subnormal.
        (
            p("1.00000000000000011102230246251565404236316680908203125"),
            Text("1.00000000000000011102230246251565404236316680908203125".into()),
        ),
        (pb("1p-1075"), Text(pb("1p-1075").to_string().into())),
        (p("0.3"), Text("0.3".into())),
    ];
    for (n, want) in table {
        assert_eq!(n.wire(), want, "{n:?}");
    }
    // 2^-1 + 2^-54 needs 54 bits: not a float64.
    let n = p("1p-1").to_big_decimal().unwrap() + p("1p-54").to_big_decimal().unwrap();
    let n = p(&n.to_string());
    assert!(matches!(n.wire(), WireNumber::Text(_)));
}

#[test]
fn equality() {
    let f = |x: f64| fl(x);
    let equal = [
        (f(0.1), p("0.1")),
        (f(0.1 + 0.2), p("0.30000000000000004")),
        (f(1e20), p("1e20")),
        (f(1e20), p("100000000000000000000")),
        (f(2f64.powi(63)), p("9223372036854775808")),
        (f(-0.0), p("0")),
        (f(-0.0), f(0.0)),
        (p("-0"), Number::zero()),
        (p("-0"), Number::from(0u8)),
        (f(1.0), Number::from(1)),
        (f(5.0), p("5.0")),
        (p("1.50"), p("1.5")),
        (p("1e3"), Number::from(1000)),
        (f(1.5), p("1.5")),
        (f(1e21), p("1e21")),
        (Number::from(u64::MAX), p("18446744073709551615")),
        (Number::infinity(), f(f64::INFINITY)),
        (Number::infinity(), p("+Inf")),
        (Number::infinity(), p("Inf")),
        (Number::neg_infinity(), p("-inf")),
        (f(5e-324), p(&f(5e-324).to_string())),
    ];
    for (a, b) in &equal {
        assert_eq!(a, b);
        assert_eq!(b, a);
        assert_eq!(hash_of(a), hash_of(b), "{a:?} {b:?}");
    }
    let unequal = [
        (f(0.1 + 0.2), p("0.3")),
        // The float's exact value is not 10^300.
        (f(1e300), p("1e300")),
        (f(1e23), p("1e23")),
        (f(2f64.powi(63)), p("9223372036854776000")),
        (
            f(0.1),
            p("0.1000000000000000055511151231257827021181583404541015625"),
        ),
        (Number::from(1), p("1.0000000000000000000001")),
        (Number::from(1), Number::from(2)),
        (Number::from(-1), Number::from(1)),
        (Number::infinity(), Number::neg_infinity()),
        (Number::infinity(), f(f64::MAX)),
        (Number::neg_infinity(), p("-1e400")),
        (p("0.5"), p("-0.5")),
        (f(0.5), f(-0.5)),
        (p("1e-400"), Number::zero()),
        (f(5e-324), Number::zero()),
    ];
    for (a, b) in &unequal {
        assert_ne!(a, b);
        assert_ne!(b, a);
    }
}

#[test]
fn cmp_numeric() {
    use Ordering::{Equal, Greater, Less};
    let table = [
        (Number::neg_infinity(), fl(-f64::MAX), Less),
        (Number::neg_infinity(), p("-1e400"), Less),
        (Number::neg_infinity(), Number::neg_infinity(), Equal),
        (Number::infinity(), Number::infinity(), Equal),
        (Number::infinity(), Number::neg_infinity(), Greater),
        (Number::infinity(), p("1e400"), Greater),
        (fl(-0.0), Number::zero(), Equal),
        (p("-0"), fl(0.0), Equal),
        (Number::from(1), fl(1.0), Equal),
        (Number::from(1), fl(1.5), Less),
        (Number::from(2), fl(1.5), Greater),
        (Number::from(-1), fl(-1.5), Greater),
        (Number::from(i64::MAX), fl(2f64.powi(63)), Less),
        (Number::from(i64::MIN), fl(-(2f64.powi(63))), Equal),
        (Number::from(i64::MIN), fl(-1e300), Greater),
        (fl(0.1), p("0.1"), Greater),
        (fl(0.3), p("0.3"), Less),
        (fl(1e300), p("1e300"), Greater),
        (fl(2f64.powi(63)), p("9223372036854775808"), Equal),
        (p("1.5"), p("1.50"), Equal),
        (p("-1.5"), p("1.5"), Less),
        (p("9223372036854775808"), Number::from(i64::MAX), Greater),
        (p("-9223372036854775809"), Number::from(i64::MIN), Less),
        (p("1e-400"), Number::zero(), Greater),
        (p("1e-400"), fl(5e-324), Less),
        (fl(5e-324), fl(0.0), Greater),
        (Number::from(-1), Number::from(10), Less),
        (p("1e21"), p("9"), Greater),
    ];
    for (a, b, want) in table {
        assert_eq!(a.cmp_numeric(&b), want, "{a:?} {b:?}");
        assert_eq!(b.cmp_numeric(&a), want.reverse(), "{b:?} {a:?}");
    }
}

#[test]
fn write_text_matches_display() {
    let mut numbers: Vec<Number> = [0i64, 1, -1, 42, i64::MAX, i64::MIN, -1_000_000]
        .into_iter()
        .map(Number::from)
        .collect();
    numbers.extend([0.1, -0.0, 1e300, 2.5e-8].map(|f| Number::from_f64(f).unwrap()));
    numbers.extend(["0.1", "123456789012345678901234567890.5"].map(|t| t.parse().unwrap()));
    for n in numbers {
        let mut out = Vec::new();
        n.write_text(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), n.to_string(), "{n:?}");
    }
}

#[test]
fn write_hash_text_matches_hash_text() {
    let mut ints: Vec<i64> = vec![0, 1, -1, 9, 10, 99, 100, 1000, i64::MAX, i64::MIN];
    for p in 1..19u32 {
        let t = 10i64.pow(p);
        ints.extend([t - 1, t, t + 1, -t + 1, -t, -t - 1, 7 * t / 3]);
    }
    for i in ints {
        let n = Number::from(i);
        let mut out = Vec::new();
        n.write_hash_text(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), n.hash_text(), "{i}");
    }
}

#[test]
fn hash_text() {
    // Checked against Go's big.Float Text('g', 10).
    let table: Vec<(Number, &str)> = vec![
        (p("1"), "1"),
        (p("1.5"), "1.5"),
        (p("10"), "10"),
        (p("100"), "100"),
        (p("1e21"), "1e+21"),
        (p("0.0001"), "0.0001"),
        (p("0.00001"), "1e-05"),
        (p("1.5e-5"), "1.5e-05"),
        (p("12345678901"), "1.23456789e+10"),
        (p("12345678902"), "1.23456789e+10"),
        (p("123456"), "123456"),
        (p("1234567"), "1234567"),
        (p("1234567.5"), "1234567.5"),
        (p("1234567890.5"), "1234567890"),
        (p("123456789"), "123456789"),
        (p("1234567891"), "1234567891"),
        (p("1000000000"), "1000000000"),
        (p("1.5e9"), "1500000000"),
        (p("1e10"), "1e+10"),
        (p("1e100"), "1e+100"),
        (p("1e400"), "1e+400"),
        (p("0.123456789012"), "0.123456789"),
        (p("99999999995"), "1e+11"),
        (p("99999999985"), "9.999999998e+10"),
        (p("9999999999.5"), "1e+10"),
        (p("0.000099999999995"), "9.999999999e-05"),
        (p("9223372036854775808"), "9.223372037e+18"),
        (p("-9223372036854775809"), "-9.223372037e+18"),
        (p("18446744073709551615"), "1.844674407e+19"),
        (p("-12345678905"), "-1.23456789e+10"),
        // A decimal tie is decided by go-cty's 512-bit approximation.
        (p("1.0000000005"), "1"),
        (p("1.0000000015"), "1.000000002"),
        (p("1.0000000025"), "1.000000002"),
        (p("12345.678905"), "12345.6789"),
        (p("1.2345678905e250"), "1.234567891e+250"),
        (p("1.2345678905e-250"), "1.234567891e-250"),
        (p("-2.5"), "-2.5"),
        (p("0"), "0"),
        (p("-0"), "-0"),
        (fl(0.0), "0"),
        (fl(-0.0), "-0"),
        (Number::from(12_345_678_905_i64), "1.23456789e+10"),
        (Number::from(12_345_678_915_i64), "1.234567892e+10"),
        (fl(12_345_678_905.0), "1.23456789e+10"),
        (fl(0.1), "0.1"),
        (fl(0.3), "0.3"),
        (fl(0.1 + 0.2), "0.3"),
        (fl(1.0 / 3.0), "0.3333333333"),
        (fl(2.0 / 3.0), "0.6666666667"),
        (fl(1e21), "1e+21"),
        (fl(2.5e-5), "2.5e-05"),
        (fl(5e-324), "4.940656458e-324"),
        (fl(f64::MAX), "1.797693135e+308"),
        (fl(2f64.powi(64)), "1.844674407e+19"),
        (Number::infinity(), "+Inf"),
        (Number::neg_infinity(), "-Inf"),
    ];
    for (n, want) in table {
        assert_eq!(n.hash_text(), want, "{n:?}");
    }
}

#[test]
fn conversions() {
    assert_eq!(Number::from(-5i8).to_i64(), Some(-5));
    assert_eq!(Number::from(300i16).to_i64(), Some(300));
    assert_eq!(Number::from(-7i32).to_i64(), Some(-7));
    assert_eq!(Number::from(7u8).to_u64(), Some(7));
    assert_eq!(Number::from(7u16).to_u64(), Some(7));
    assert_eq!(Number::from(u32::MAX).to_u64(), Some(u64::from(u32::MAX)));
    assert_eq!(Number::from(12usize).to_u64(), Some(12));
    assert_eq!(Number::from(u64::MAX).to_u64(), Some(u64::MAX));
    assert_eq!(Number::from(u64::MAX).to_i64(), None);
    assert_eq!(Number::from(1u64 << 63).to_u64(), Some(1 << 63));
    assert_eq!(Number::from(i64::MIN).to_u64(), None);
    assert_eq!(p("1e19").to_u64(), Some(10_000_000_000_000_000_000));
    assert_eq!(p("1e20").to_u64(), None);
    assert_eq!(p("1.5").to_i64(), None);
    assert_eq!(p("-0").to_i64(), Some(0));
    assert_eq!(p("-0").to_u64(), Some(0));
    assert_eq!(fl(3.0).to_i64(), Some(3));
    assert_eq!(fl(3.5).to_i64(), None);
    assert_eq!(fl(-3.0).to_u64(), None);
    assert_eq!(fl(2f64.powi(63)).to_i64(), None);
    assert_eq!(fl(2f64.powi(63)).to_u64(), Some(1 << 63));
    assert_eq!(fl(2f64.powi(64)).to_u64(), None);
    assert_eq!(Number::infinity().to_i64(), None);

    assert_eq!(p("0.1").to_f64(), 0.1);
    assert_eq!(p("1e400").to_f64(), f64::INFINITY);
    assert_eq!(p("-1e400").to_f64(), f64::NEG_INFINITY);
    assert_eq!(p("1e-400").to_f64(), 0.0);
    assert_eq!(p("9223372036854775809").to_f64(), 2f64.powi(63));
    assert_eq!(pb("1p-1074").to_f64(), 5e-324);
    // Halfway between 1 and the next float64, plus a little: rounds up.
    let above_half = p("1.00000000000000011102230246251565404236316680908203125000001");
    assert_eq!(above_half.to_f64(), 1.0 + f64::EPSILON);
    assert_eq!(Number::from(i64::MAX).to_f64(), 2f64.powi(63));
    assert_eq!(fl(-0.0).to_f64().to_bits(), (-0.0f64).to_bits());
    assert_eq!(Number::neg_infinity().to_f64(), f64::NEG_INFINITY);

    let exact = fl(0.1).to_big_decimal().unwrap();
    assert_eq!(
        exact.to_string(),
        "0.1000000000000000055511151231257827021181583404541015625"
    );
    assert_eq!(
        fl(1e20).to_big_decimal().unwrap(),
        p("1e20").to_big_decimal().unwrap()
    );
    assert_eq!(
        p("-2.5").to_big_decimal().unwrap(),
        BigDecimal::new((-25).into(), 1)
    );
    assert_eq!(
        Number::from(-3).to_big_decimal().unwrap(),
        BigDecimal::from(-3)
    );
    assert!(fl(-0.0).to_big_decimal().unwrap().is_zero());
    assert_eq!(Number::infinity().to_big_decimal(), None);

    assert!(Number::from_f64(f64::NAN).is_none());
    assert_eq!(
        Number::try_from(f64::NAN).unwrap_err().to_string(),
        "NaN is not a number"
    );
    assert_eq!(Number::try_from(2.5).unwrap(), p("2.5"));
    assert!(Number::try_from(f64::INFINITY).unwrap().is_infinite());
    assert_eq!(Number::default(), Number::zero());
}

#[test]
fn predicates() {
    // (number, infinite, integer, negative, float origin)
    let table = [
        (Number::zero(), false, true, false, false),
        (p("-0"), false, true, false, true),
        (fl(-0.0), false, true, false, true),
        (fl(1.0), false, true, false, true),
        (fl(-1.5), false, false, true, true),
        (fl(1e300), false, true, false, true),
        (fl(5e-324), false, false, false, true),
        (p("1e3"), false, true, false, false),
        (p("1e30"), false, true, false, false),
        (p("-1.5"), false, false, true, false),
        (p("-1e30"), false, true, true, false),
        (Number::from(-3), false, true, true, false),
        (Number::infinity(), true, false, false, false),
        (Number::neg_infinity(), true, false, true, false),
        (fl(f64::NEG_INFINITY), true, false, true, false),
    ];
    for (n, inf, int, neg, float) in table {
        assert_eq!(n.is_infinite(), inf, "{n:?}");
        assert_eq!(n.is_integer(), int, "{n:?}");
        assert_eq!(n.is_negative(), neg, "{n:?}");
        assert_eq!(n.is_float_origin(), float, "{n:?}");
    }
}

/// The fast path through Rust's float formatting gives Go's digits.
#[test]
fn shortest_fast_path_matches_go_algorithm() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let check = |f: f64| {
        assert_eq!(shortest_digits(f), go_shortest(f), "{:016x}", f.to_bits());
    };
    // Every power of two, subnormal and normal.
    for k in 0..52 {
        check(f64::from_bits(1 << k));
    }
    for e in 1..2047_u64 {
        check(f64::from_bits(e << 52));
    }
    for _ in 0..10_000 {
        let r = next();
        let exp = (r >> 52) & 0x7ff;
        if exp == 0x7ff || r & !(1 << 63) == 0 {
            continue;
        }
        check(f64::from_bits(r));
        // Few mantissa bits and moderate exponents: ties and short bounds.
        let e = 1023 - 30 + (r >> 58) * 2;
        check(f64::from_bits((e << 52) | ((r & 0xffff) << 36)));
    }
    for b in [
        0x4311_e52f_96e3_bb71_u64,
        0x4390_1985_eec8_433f,
        0x4396_1ef4_97ce_bf17,
    ] {
        check(f64::from_bits(b));
    }
}

#[test]
fn order_table() {
    use Ordering::{Equal, Greater, Less};
    let table = [
        (Number::neg_infinity(), fl(-f64::MAX), Less),
        (Number::neg_infinity(), p("-1e400"), Less),
        (Number::infinity(), p("1e400"), Greater),
        (Number::infinity(), fl(f64::INFINITY), Equal),
        (fl(-0.0), Number::zero(), Equal),
        (fl(-0.0), p("-0"), Equal),
        // A non-integer float64 counts as the decimal it prints as.
        (fl(0.1), p("0.1"), Equal),
        (
            fl(0.1),
            p("0.1000000000000000055511151231257827021181583404541015625"),
            Less,
        ),
        (fl(0.3), p("0.3"), Equal),
        (fl(0.1 + 0.2), p("0.3"), Greater),
        // Integers compare exactly, whatever their origin.
        (fl(1e300), p("1e300"), Greater),
        (fl(1e23), p("1e23"), Less),
        (fl(2f64.powi(63)), p("9223372036854775808"), Equal),
        (Number::from(i64::MAX), fl(2f64.powi(63)), Less),
        (Number::from(1), fl(1.5), Less),
        (Number::from(1), p("1.0000000000000000000001"), Less),
        (p("1.5"), p("1.50"), Equal),
        (p("1e-400"), Number::zero(), Greater),
        (p("1e-400"), fl(5e-324), Less),
        (Number::from(u64::MAX), p("18446744073709551615"), Equal),
    ];
    for (a, b, want) in table {
        assert_eq!(a.cmp(&b), want, "{a:?} {b:?}");
        assert_eq!(b.cmp(&a), want.reverse(), "{b:?} {a:?}");
        assert_eq!(a == b, want == Equal, "{a:?} {b:?}");
    }
}

mod order_properties {
    use super::*;
    use proptest::prelude::*;

    /// Numbers of every origin, with many near and equal pairs: small integers, float64s
    /// (any finite, and small halves), their texts as decimals, decimals, infinities.
    fn number() -> impl Strategy<Value = Number> {
        prop_oneof![
            (-20i64..20).prop_map(Number::from),
            any::<i64>().prop_map(Number::from),
            any::<f64>().prop_filter_map("NaN", Number::from_f64),
            (-40i32..40).prop_map(|h| fl(f64::from(h) / 4.0)),
            any::<f64>()
                .prop_filter_map("NaN or infinite", Number::from_f64)
                .prop_map(|n| p(&n.to_string())),
            (-40i32..40).prop_map(|h| p(&(f64::from(h) / 4.0).to_string())),
            ("-?[0-9]{1,25}", 0u32..30).prop_map(|(digits, scale)| {
                let text = if scale == 0 {
                    digits
                } else {
                    format!("{digits}e-{scale}")
                };
                p(&text)
            }),
            Just(Number::infinity()),
            Just(Number::neg_infinity()),
        ]
    }

    fn is_float(n: &Number) -> Option<f64> {
        match n.0 {
            Repr::Float(f) => Some(f),
            Repr::Infinity { negative } => Some(if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }),
            _ => None,
        }
    }

    proptest! {
        #![proptest_config(crate::proptest_config(crate::test_cases(2000)))]

        #[test]
        fn order_agrees_with_equality_and_hash(a in number(), b in number()) {
            prop_assert_eq!(a.cmp(&b) == Ordering::Equal, a == b, "{:?} {:?}", a, b);
            prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
            prop_assert_eq!(a.partial_cmp(&b), Some(a.cmp(&b)));
            if a == b {
                prop_assert_eq!(hash_of(&a), hash_of(&b));
            }
        }

        #[test]
        fn order_is_transitive(a in number(), b in number(), c in number()) {
            let mut sorted = [a, b, c];
            sorted.sort();
            prop_assert!(sorted[0] <= sorted[1] && sorted[1] <= sorted[2]);
            prop_assert!(sorted[0] <= sorted[2], "{:?}", sorted);
        }

        #[test]
        fn order_agrees_with_f64_and_exact_order(a in number(), b in number()) {
            if let (Some(x), Some(y)) = (is_float(&a), is_float(&b)) {
                prop_assert_eq!(Some(a.cmp(&b)), x.partial_cmp(&y), "{} {}", x, y);
            }
            // Where neither side is a non-integer float64, the order is the exact one.
            let exact = |n: &Number| !matches!(n.0, Repr::Float(f) if f.fract() != 0.0);
            if exact(&a) && exact(&b) {
                prop_assert_eq!(a.cmp(&b), a.cmp_numeric(&b), "{:?} {:?}", a, b);
            }
        }
    }
}
