//! Generates the protocol's messages and services from `proto/` into OUT_DIR, compiling
//! the `.proto` files with protox (pure Rust: no system `protoc`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "proto/tfplugin6.proto",
        "proto/tfplugin5.proto",
        "proto/grpc_controller.proto",
    ];
    for file in files {
        println!("cargo:rerun-if-changed={file}");
    }
    let descriptors = protox::compile(files, ["proto"])?;
    tonic_prost_build::configure()
        // Every method has a default that answers Unimplemented, so a provider writes
        // only the calls it serves.
        .generate_default_stubs(true)
        // DynamicValue's fields as `bytes::Bytes`: megabytes of state read without a copy
        // out of the request buffer.
        .bytes(".tfplugin6.DynamicValue")
        .bytes(".tfplugin5.DynamicValue")
        .compile_fds(descriptors)?;
    Ok(())
}
