data "demo_echo" "x" {
  value = { a = [1, 2], b = "c" }
}

output "echoed" {
  value = data.demo_echo.x.result
}
