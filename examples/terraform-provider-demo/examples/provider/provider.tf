provider "demo" {}
