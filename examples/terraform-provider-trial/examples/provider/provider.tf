provider "trial" {
  directory = "${path.module}/servers"
}
